package rankgrad.ltr.metric;

/**
 * The gain g(y) of a grade y in DCG and nDCG (Jarvelin and Kekalainen 2002, Sec. 2.2; Burges et al.
 * 2005 for the exponential form).
 */
public enum Gain {
    /** g(y) = 2^y - 1 (the default; LightGBM's and XGBoost's nDCG, Yu et al. Eq. 5). */
    EXPONENTIAL,
    /** g(y) = y: trec_eval's {@code ndcg} and {@code ndcg_cut} (the grade itself). */
    LINEAR;

    /** g(y) under this convention. */
    public double of(double label) {
        return this == LINEAR ? label : ExactMetrics.gain(label);
    }
}
