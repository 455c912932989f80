package rankgrad.ltr.internal.pairwise;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;

/**
 * The smoothed-hinge pair kernels of SHF-SDCG (Wu et al. Eq. 12-16; {@link
 * PairKernels#hingeRanksF32}) on the Vector API, one row k per lane, j summed in the order of
 * {@link ScalarPairKernels}. Part of {@link VectorPairKernels}, which alone calls it.
 *
 * <p>Per pair, with x = s_k - s_j: lanes where y_k &gt; y_j ("lead") use A_a(x), lanes where y_k
 * &lt; y_j ("trail") 1 + A_a(-x), the others G_a(x). Each lane needs at most one logistic value:
 * G_a(x) = sigma(-a x) for equal labels and for the lead branch at x &gt;= 0, sigma(a x) for the
 * trail branch at x &lt;= 0; the tangent 1/2 -+ (a/4) x replaces it on the other side. So one
 * sigmoid per pair, its argument's sign chosen per lane, then two blends.
 *
 * <p>As for the approximate ranks ({@link VectorPairKernels}), the float32 kernels take an
 * exp-free path when the query's scores span at most 160 / a: with the factors P_j = e^{a (s_j -
 * c)}, G_a(s_k - s_j) = P_j / (P_k + P_j), G_a(s_j - s_k) = P_k / (P_k + P_j) and G_a' = -a P_k
 * P_j / (P_k + P_j)^2, one division per pair; wider queries evaluate exp per pair.
 *
 * <p>Apart from that, rank terms are the scalar kernel's expressions operation for operation
 * (only sigma's rounding differs). The gradient uses G_a'(x) = G_a'(-x) = -a e / (1 + e)^2 with
 * e = e^{-|a x|} (or the factored form), which has no cancellation, where the scalar kernel forms
 * -a g (1 - g) from a rounded g (whose 1 - g loses all its digits when g is near 1): the two
 * differ by up to a few ulps of a/4 per term, the bound the differential tests state.
 */
final class VectorHingeKernels {
    private static final VectorSpecies<Float> F = VectorSupport.FLOAT;
    private static final VectorSpecies<Double> D = VectorSupport.DOUBLE;

    private VectorHingeKernels() {
    }

    /** out[k] = 1/2 + sum_j T_kj(s_k - s_j). */
    static void ranksF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        float[] p = VectorPairKernels.expFactors(s, off, m, alpha);
        if (p != null) {
            ranksFactored(p, s, y, off, m, rowFrom, rowTo, alpha, out);
        } else {
            ranksDirect(s, y, off, m, rowFrom, rowTo, alpha, out);
        }
    }

    /** {@link #ranksF32} with G_a from the factors P. */
    private static void ranksFactored(float[] p, float[] s, float[] y, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out) {
        float quarterA = 0.25f * alpha;
        FloatVector half = FloatVector.broadcast(F, 0.5f);
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = half;
            for (int j = off; j < off + m; j++) {
                float pj = p[j - off];
                FloatVector x = sk.sub(s[j]);
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector g = FloatVector.broadcast(F, pj).blend(pk, trail).mul(one.div(pk.add(pj)));
                FloatVector h = x.mul(quarterA);
                FloatVector a = g.blend(half.sub(h), lead.and(x.compare(VectorOperators.LT, 0f)))
                        .blend(h.add(0.5f), trail.and(x.compare(VectorOperators.GT, 0f)));
                acc = acc.add(a.add(1f, trail));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** {@link #ranksF32} with exp per pair. */
    private static void ranksDirect(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha,
            float[] out) {
        // The scalar kernel's tangent is 0.5f - (0.25f * a) * x: the same product, rounded the same.
        float quarterA = 0.25f * alpha;
        FloatVector half = FloatVector.broadcast(F, 0.5f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = half;
            for (int j = off; j < off + m; j++) {
                FloatVector x = sk.sub(s[j]);
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector ax = x.mul(alpha);
                FloatVector g = VectorMath.sigmoid(ax.neg().blend(ax, trail));
                FloatVector h = x.mul(quarterA);
                FloatVector a = g.blend(half.sub(h), lead.and(x.compare(VectorOperators.LT, 0f)))
                        .blend(h.add(0.5f), trail.and(x.compare(VectorOperators.GT, 0f)));
                acc = acc.add(a.add(1f, trail));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** {@link #ranksF32} in float64. */
    static void ranksF64(double[] s, float[] y, int off, int m, int rowFrom, int rowTo, double alpha, double[] out) {
        double quarterA = 0.25 * alpha;
        DoubleVector half = DoubleVector.broadcast(D, 0.5);
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector yk = VectorPairKernels.labelsF64(y, kb, rowTo);
            DoubleVector acc = half;
            for (int j = off; j < off + m; j++) {
                DoubleVector x = sk.sub(s[j]);
                VectorMask<Double> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Double> trail = yk.compare(VectorOperators.LT, y[j]);
                DoubleVector ax = x.mul(alpha);
                DoubleVector g = VectorMath.sigmoid(ax.neg().blend(ax, trail));
                DoubleVector h = x.mul(quarterA);
                DoubleVector a = g.blend(half.sub(h), lead.and(x.compare(VectorOperators.LT, 0.0)))
                        .blend(h.add(0.5), trail.and(x.compare(VectorOperators.GT, 0.0)));
                acc = acc.add(a.add(1.0, trail));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /**
     * out[k] = sum_j (c_k t1 - c_j t2) with t1 = T'_kj(x), t2 = T'_jk(-x): t1 = t2 = G' for equal
     * labels; for lead lanes t1 = b and t2 = -b, for trail lanes t1 = -b and t2 = b, where b is G'
     * or, on the tangent side, -a/4.
     */
    static void gradientF32(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo, float alpha,
            float[] out) {
        float[] p = VectorPairKernels.expFactors(s, off, m, alpha);
        if (p != null) {
            gradientFactored(p, s, y, c, off, m, rowFrom, rowTo, alpha, out);
        } else {
            gradientDirect(s, y, c, off, m, rowFrom, rowTo, alpha, out);
        }
    }

    /** {@link #gradientF32} with G_a' from the factors P. */
    private static void gradientFactored(float[] p, float[] s, float[] y, float[] c, int off, int m, int rowFrom,
            int rowTo, float alpha, float[] out) {
        float tangentSlope = -0.25f * alpha;
        float minusA = -alpha;
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector ck = FloatVector.fromArray(F, c, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                float pj = p[j - off];
                FloatVector x = sk.sub(s[j]);
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector inv = one.div(pk.add(pj));
                FloatVector b = pk.mul(inv).mul(inv.mul(pj)).mul(minusA)
                        .blend(tangentSlope, lead.and(x.compare(VectorOperators.LT, 0f))
                                .or(trail.and(x.compare(VectorOperators.GT, 0f))));
                FloatVector t1 = b.lanewise(VectorOperators.NEG, trail);
                FloatVector t2 = b.lanewise(VectorOperators.NEG, lead);
                acc = acc.add(ck.mul(t1).sub(t2.mul(c[j])));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** {@link #gradientF32} with exp per pair. */
    private static void gradientDirect(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out) {
        float tangentSlope = -0.25f * alpha;
        float minusA = -alpha;
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector ck = FloatVector.fromArray(F, c, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                FloatVector x = sk.sub(s[j]);
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector e = VectorMath.exp(x.mul(alpha).abs().neg());
                FloatVector r = one.div(one.add(e));
                FloatVector b = e.mul(r).mul(r).mul(minusA)
                        .blend(tangentSlope, lead.and(x.compare(VectorOperators.LT, 0f))
                                .or(trail.and(x.compare(VectorOperators.GT, 0f))));
                FloatVector t1 = b.lanewise(VectorOperators.NEG, trail);
                FloatVector t2 = b.lanewise(VectorOperators.NEG, lead);
                acc = acc.add(ck.mul(t1).sub(t2.mul(c[j])));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** {@link #gradientF32} in float64. */
    static void gradientF64(double[] s, float[] y, double[] c, int off, int m, int rowFrom, int rowTo, double alpha,
            double[] out) {
        double tangentSlope = -0.25 * alpha;
        double minusA = -alpha;
        DoubleVector one = DoubleVector.broadcast(D, 1.0);
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector yk = VectorPairKernels.labelsF64(y, kb, rowTo);
            DoubleVector ck = DoubleVector.fromArray(D, c, kb, rows);
            DoubleVector acc = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                DoubleVector x = sk.sub(s[j]);
                VectorMask<Double> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Double> trail = yk.compare(VectorOperators.LT, y[j]);
                DoubleVector e = VectorMath.exp(x.mul(alpha).abs().neg());
                DoubleVector r = one.div(one.add(e));
                DoubleVector b = e.mul(r).mul(r).mul(minusA)
                        .blend(tangentSlope, lead.and(x.compare(VectorOperators.LT, 0.0))
                                .or(trail.and(x.compare(VectorOperators.GT, 0.0))));
                DoubleVector t1 = b.lanewise(VectorOperators.NEG, trail);
                DoubleVector t2 = b.lanewise(VectorOperators.NEG, lead);
                acc = acc.add(ck.mul(t1).sub(t2.mul(c[j])));
            }
            acc.intoArray(out, kb, rows);
        }
    }
}
