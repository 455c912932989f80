package rankgrad.ltr.pairwise;

/**
 * How the backward pass differentiates the pair indicator of a rank (Yu et al. 2020, Sec. 5).
 *
 * <p>A rank is {@code r_i = 1 + sum_{j != i} (1 - h(s_i - s_j))} for a pair function h (the
 * twin-sigmoid sigma^+ of Yu Eq. 12, or the sigmoid sigma(alpha z) of the approximate rank
 * pi^-). For the ordered pair (i, j) with z = s_i - s_j, sb = sigma(alpha z) and
 * u = sign(y_i - y_j) from the labels, the backward uses in place of dh/dz:
 * <ul>
 *   <li>{@link #TYPE1}: alpha sb (1 - sb) (Eq. 11): the sigmoid's derivative;</li>
 *   <li>{@link #TYPE2}: u alpha sb (1 - sb) (Eq. 20): label-consistent directions;</li>
 *   <li>{@link #TYPE3}: 2 alpha (1 - sb) if u = 1, 0 if u = 0, -2 alpha sb if u = -1 (Eq. 21):
 *       amplified, does not vanish for badly misordered pairs.</li>
 * </ul>
 * Types 2 and 3 are deliberately not the gradient of any function (like LambdaRank's lambdas).
 */
public enum BackwardType {
    /** Eq. 11: alpha sb (1 - sb). */
    TYPE1,
    /** Eq. 20: sign(y_i - y_j) alpha sb (1 - sb). */
    TYPE2,
    /** Eq. 21: 2 alpha (1 - sb) if y_i &gt; y_j, 0 if equal, -2 alpha sb if y_i &lt; y_j. */
    TYPE3;

    /** The number used by Yu et al. and in loss names: 1, 2 or 3. */
    public int number() {
        return ordinal() + 1;
    }

    /** TYPE1, TYPE2 or TYPE3 from 1, 2 or 3. */
    public static BackwardType of(int number) {
        if (number < 1 || number > 3) {
            throw new IllegalArgumentException("backward type must be 1, 2 or 3 (Yu et al. Eq. 11, 20, 21), got " + number);
        }
        return values()[number - 1];
    }
}
