package rankgrad.simd.internal;

import static rankgrad.simd.internal.VectorSupport.DOUBLE;
import static rankgrad.simd.internal.VectorSupport.FLOAT;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * exp, tanh, the logistic sigmoid and log1p on float and double vectors from additions,
 * multiplications, divisions, fused multiply-adds and bit operations only, so that every lane's
 * result is fully determined by IEEE 754 arithmetic. Every vector kernel of rankgrad (the engine's
 * and the ranking pair kernels) uses these, on the species of {@link VectorSupport}.
 *
 * <p>Why not {@code VectorOperators.EXP}, {@code TANH} or {@code LOG1P}: their result depends on
 * how the code runs. Compiled by C2 on x86 they call Intel's SVML, interpreted or in C1 they fall
 * back to {@code Math.exp} per lane, and the two differ in the last bit for about one input in
 * ten; the same training step would then give different losses before and after warm-up. The
 * operations used here are exactly specified in every mode and on every CPU.
 *
 * <p>Formulas. exp (Cephes {@code expf}, S. L. Moshier): exp(x) = 2^n p(r) with n = round(x / ln
 * 2), r = x - n ln 2 (ln 2 split in two parts, Cody-Waite) and p a degree-7 polynomial (Horner
 * with FMA) in float32, the degree-13 Taylor polynomial in float64 (truncation below 0.05 ulp for
 * |r| &lt;= ln 2 / 2); 2^n is applied as two factors so that subnormal results round once. tanh
 * (Cephes {@code tanhf}): x + x^3 q(x^2) for |x| &lt; 0.625 and 1 - 2 / (exp(2|x|) + 1) above, with
 * the sign of x copied back (so tanh(-0) = -0). log1p(u) for u in [0, 1]: 1 + u = 2^k (1 + f) with
 * k in {0, 1} and f in [sqrt(1/2) - 1, sqrt(2) - 1], then log(1 + f) = 2 atanh(t), t = f / (2 + f),
 * |t| &lt;= 0.1716, summed as the series 2 (t + t^3/3 + t^5/5 + ...) up to t^11 (float32) or t^21
 * (float64), where the next term is below 0.1 ulp. Measured over millions of inputs spanning
 * every exponent: float32 exp, tanh and sigmoid within 1, 1 and 3 ulps of {@code (float)
 * Math.exp}, {@code Math.tanh} and the float64 logistic, log1p within 2.2 ulps of the true value;
 * float64 exp, sigmoid and log1p within 1, 3 and 2 ulps of {@code Math.exp}, the {@code
 * Math.exp}-based logistic and {@code Math.log1p} ({@code VectorMathTest} states each bound); and
 * identical bits interpreted ({@code -Xint}), in C1 and in C2.
 *
 * <p>Internal: this package is meant to be exported only to rankgrad's own modules.
 */
public final class VectorMath {
    /** Above this exp(x) overflows to +infinity; below -104 it underflows to 0. */
    private static final float EXP_HI = 89f;
    private static final float EXP_LO = -104f;
    private static final float LOG2E = 1.44269504088896341f;
    /** ln 2 = LN2_HI + LN2_LO; LN2_HI has 9 significant bits, so n * LN2_HI is exact. */
    private static final float LN2_HI = 0.693359375f;
    private static final float LN2_LO = -2.12194440e-4f;
    /** 1.5 * 2^23: adding and subtracting it rounds a float below 2^22 to the nearest integer. */
    private static final float ROUND = 12582912f;
    private static final float TANH_SMALL = 0.625f;
    /** sqrt(2) - 1: log1p(u) reduces u below it to f = u, and u from it on to f = (u - 1) / 2. */
    private static final float SQRT2_M1 = 0.41421356f;

    /** sqrt(2) - 1 in float64. The float64 exp's constants are {@link LaneMath}'s, its scalar twin. */
    private static final double SQRT2_M1_D = 0.41421356237309503;
    /** 1 / (2i + 1), i = 1..10: the series of atanh(t) / t - 1 in t^2. */
    private static final double[] ATANH_D = new double[10];

    static {
        for (int i = 0; i < ATANH_D.length; i++) {
            ATANH_D[i] = 1.0 / (2 * i + 3);
        }
    }

    private VectorMath() {
    }

    /** A constant in every lane (made where it is used: C2 then keeps it in a register). */
    private static FloatVector c(float v) {
        return FloatVector.broadcast(FLOAT, v);
    }

    private static DoubleVector c(double v) {
        return DoubleVector.broadcast(DOUBLE, v);
    }

    /** e^x per lane; NaN stays NaN, +-infinity give +infinity and 0. */
    public static FloatVector exp(FloatVector x) {
        FloatVector xc = x.max(EXP_LO).min(EXP_HI);
        FloatVector n = xc.mul(LOG2E).add(ROUND).sub(ROUND);
        FloatVector r = n.fma(c(-LN2_HI), xc);
        r = n.fma(c(-LN2_LO), r);
        FloatVector p = c(1.9875691500e-4f);
        p = p.fma(r, c(1.3981999507e-3f));
        p = p.fma(r, c(8.3334519073e-3f));
        p = p.fma(r, c(4.1665795894e-2f));
        p = p.fma(r, c(1.6666665459e-1f));
        p = p.fma(r, c(5.0000001201e-1f));
        p = p.fma(r.mul(r), r).add(1f);
        IntVector ni = (IntVector) n.convert(VectorOperators.F2I, 0);
        IntVector half = ni.lanewise(VectorOperators.ASHR, 1);
        FloatVector s1 = half.add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        FloatVector s2 = ni.sub(half).add(127).lanewise(VectorOperators.LSHL, 23).reinterpretAsFloats();
        return p.mul(s1).mul(s2);
    }

    /** e^x per lane in float64; NaN stays NaN, +-infinity give +infinity and 0. */
    public static DoubleVector exp(DoubleVector x) {
        DoubleVector xc = x.max(LaneMath.EXP_LO).min(LaneMath.EXP_HI);
        DoubleVector n = xc.mul(LaneMath.LOG2E).add(LaneMath.ROUND).sub(LaneMath.ROUND);
        DoubleVector r = n.fma(c(-LaneMath.LN2_HI), xc);
        r = n.fma(c(-LaneMath.LN2_LO), r);
        double[] taylor = LaneMath.EXP_TAYLOR;
        DoubleVector p = c(taylor[taylor.length - 1]);
        for (int i = taylor.length - 2; i >= 0; i--) {
            p = p.fma(r, c(taylor[i]));
        }
        LongVector ni = (LongVector) n.convert(VectorOperators.D2L, 0);
        LongVector half = ni.lanewise(VectorOperators.ASHR, 1);
        DoubleVector s1 = half.add(1023L).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
        DoubleVector s2 = ni.sub(half).add(1023L).lanewise(VectorOperators.LSHL, 52).reinterpretAsDoubles();
        return p.mul(s1).mul(s2);
    }

    /** tanh(x) per lane; NaN stays NaN, +-infinity give +-1, the sign of zero is kept. */
    public static FloatVector tanh(FloatVector x) {
        FloatVector ax = x.abs();
        FloatVector z = ax.mul(ax);
        FloatVector q = c(-5.70498872745e-3f);
        q = q.fma(z, c(2.06390887954e-2f));
        q = q.fma(z, c(-5.37397155531e-2f));
        q = q.fma(z, c(1.33314422036e-1f));
        q = q.fma(z, c(-3.33332819422e-1f));
        FloatVector small = q.mul(z).fma(ax, ax);
        FloatVector one = c(1f);
        FloatVector large = one.sub(one.add(one).div(exp(ax.add(ax)).add(one)));
        FloatVector t = small.blend(large, ax.compare(VectorOperators.GT, TANH_SMALL));
        IntVector sign = x.reinterpretAsInts().and(Integer.MIN_VALUE);
        return t.reinterpretAsInts().or(sign).reinterpretAsFloats();
    }

    /**
     * 1 / (1 + e^-x) per lane, as 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0 with
     * e = exp(-|x|) in (0, 1]: the exponential never overflows, and for very negative x the result
     * keeps its relative accuracy down to the subnormals instead of rounding 1 - something to 0.
     */
    public static FloatVector sigmoid(FloatVector x) {
        FloatVector e = exp(x.abs().neg());
        FloatVector one = c(1f);
        FloatVector r = one.div(one.add(e));
        return r.blend(e.mul(r), x.compare(VectorOperators.LT, 0f));
    }

    /** {@link #sigmoid(FloatVector)} in float64. */
    public static DoubleVector sigmoid(DoubleVector x) {
        DoubleVector e = exp(x.abs().neg());
        DoubleVector one = c(1.0);
        DoubleVector r = one.div(one.add(e));
        return r.blend(e.mul(r), x.compare(VectorOperators.LT, 0.0));
    }

    /**
     * log(1 + u) per lane for u in [0, 1], the range of e^{-|x|} in softplus(x) = max(x, 0) +
     * log1p(e^{-|x|}); outside it the result is unspecified. NaN stays NaN.
     */
    public static FloatVector log1pUnit(FloatVector u) {
        VectorMask<Float> high = u.compare(VectorOperators.GE, SQRT2_M1);
        // 1 + u = 2 (1 + f) with f = (u - 1) / 2 when u >= sqrt(2) - 1; f = u itself (exact) below.
        FloatVector f = u.blend(u.sub(1f).mul(0.5f), high);
        FloatVector t = f.div(f.add(2f));
        FloatVector t2 = t.mul(t);
        FloatVector q = c(1f / 11);
        q = q.fma(t2, c(1f / 9));
        q = q.fma(t2, c(1f / 7));
        q = q.fma(t2, c(1f / 5));
        q = q.fma(t2, c(1f / 3));
        FloatVector s = t.add(t);
        return s.mul(t2).fma(q, s).add(LN2_LO, high).add(LN2_HI, high);
    }

    /** {@link #log1pUnit(FloatVector)} in float64. */
    public static DoubleVector log1pUnit(DoubleVector u) {
        VectorMask<Double> high = u.compare(VectorOperators.GE, SQRT2_M1_D);
        DoubleVector f = u.blend(u.sub(1.0).mul(0.5), high);
        DoubleVector t = f.div(f.add(2.0));
        DoubleVector t2 = t.mul(t);
        DoubleVector q = c(ATANH_D[ATANH_D.length - 1]);
        for (int i = ATANH_D.length - 2; i >= 0; i--) {
            q = q.fma(t2, c(ATANH_D[i]));
        }
        DoubleVector s = t.add(t);
        return s.mul(t2).fma(q, s).add(LaneMath.LN2_LO, high).add(LaneMath.LN2_HI, high);
    }
}
