package rankgrad.simd.internal;

/**
 * {@link VectorMath}'s float64 exp on one double, operation for operation: the scalar reference
 * of a vector kernel that exponentiates must give the vector kernel's bits, which {@code Math.exp}
 * (a different algorithm, up to 1 ulp away) does not. The same clamp, Cody-Waite reduction,
 * degree-13 Taylor polynomial by Horner's rule with {@code Math.fma} and the two-factor scaling
 * by 2^n, with the constants {@link VectorMath} itself reads from here, so every lane of {@code
 * VectorMath.exp(DoubleVector)} equals {@link #exp} of its input bit for bit in every JIT tier
 * ({@code VectorMathTest}).
 *
 * <p>Plain Java: it links nothing from {@code jdk.incubator.vector}, so scalar kernels may call it
 * when the Vector API is absent. Internal, like the rest of this package.
 */
public final class LaneMath {
    /** Above this exp(x) overflows to +infinity (e^709.78 = MAX_VALUE); below -746 it underflows to 0. */
    static final double EXP_HI = 710.0;
    static final double EXP_LO = -746.0;
    static final double LOG2E = 1.4426950408889634;
    /** fdlibm's split of ln 2: LN2_HI has 32 significant bits, so n * LN2_HI is exact for |n| &lt; 2^21. */
    static final double LN2_HI = 6.93147180369123816490e-01;
    static final double LN2_LO = 1.90821492927058770002e-10;
    /** 1.5 * 2^52, the float64 rounding constant. */
    static final double ROUND = 0x1.8p52;
    /** 1 / i!, i = 0..13: the Taylor coefficients of e^r (truncation below 0.05 ulp for |r| &lt;= ln 2 / 2). */
    static final double[] EXP_TAYLOR = taylor();

    private LaneMath() {
    }

    private static double[] taylor() {
        double[] c = new double[14];
        double factorial = 1;
        for (int i = 0; i < c.length; i++) {
            factorial *= Math.max(1, i);
            c[i] = 1.0 / factorial;
        }
        return c;
    }

    /**
     * e^x as {@code VectorMath.exp(DoubleVector)} computes each lane: n = round(x / ln 2),
     * r = x - n ln 2, e^x = p(r) 2^(n/2) 2^(n - n/2); NaN stays NaN, +-infinity give +infinity and 0.
     */
    public static double exp(double x) {
        double xc = Math.min(Math.max(x, EXP_LO), EXP_HI);
        double n = xc * LOG2E + ROUND - ROUND;
        double r = Math.fma(n, -LN2_HI, xc);
        r = Math.fma(n, -LN2_LO, r);
        double p = EXP_TAYLOR[EXP_TAYLOR.length - 1];
        for (int i = EXP_TAYLOR.length - 2; i >= 0; i--) {
            p = Math.fma(p, r, EXP_TAYLOR[i]);
        }
        long ni = (long) n;
        long half = ni >> 1;
        double s1 = Double.longBitsToDouble((half + 1023L) << 52);
        double s2 = Double.longBitsToDouble((ni - half + 1023L) << 52);
        return p * s1 * s2;
    }
}
