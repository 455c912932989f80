package rankgrad.ltr.internal.pairwise;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;
import rankgrad.ltr.pairwise.BackwardType;

/**
 * Pair kernels on the Panama Vector API, one row k per SIMD lane: for a block of rows, the loop
 * over j broadcasts s_j (and y_j, g_j) and updates every lane's sum, so each row is summed in the
 * scalar kernel's order and no cross-lane reduction is needed. A partial last block is masked.
 * The smoothed-hinge kernels are {@link VectorHingeKernels}, the RankNet / LambdaRank pair terms
 * {@link VectorLogisticKernels}.
 *
 * <p>One SIMD layer with the engine: the species (and its {@code -Drankgrad.vector.bits}
 * override) is {@link VectorSupport}'s, and exp, sigmoid and log1p are {@link VectorMath}'s,
 * written in lanewise add, multiply, divide, fma and integer conversions (never {@code
 * VectorOperators.EXP}, whose SVML and per-lane {@code Math.exp} versions differ between JIT
 * tiers): correctly rounded IEEE operations, so a result has the same bits interpreted, in C1
 * and in C2.
 *
 * <p>Loaded reflectively by {@link PairKernelProvider} only when {@code jdk.incubator.vector} is
 * readable, so that nothing else in {@code rankgrad.ltr} links against the incubator module.
 * Constant factors (alpha, 2 alpha) are applied once at the end of a row, one of the reasons
 * results differ from {@link ScalarPairKernels} by rounding (never by summation order).
 */
final class VectorPairKernels implements PairKernels {
    private static final VectorSpecies<Float> F = VectorSupport.FLOAT;
    private static final VectorSpecies<Double> D = VectorSupport.DOUBLE;
    private static final FloatVector ONE_F = FloatVector.broadcast(F, 1f);

    /** Largest |alpha (s - c)| for which {@link #expFactors} are used: P in [e^-80, e^80]. */
    private static final double FACTOR_RANGE = 80.0;

    /**
     * For reflective loading by {@link PairKernelProvider}.
     *
     * @throws UnsupportedOperationException when float vectors have fewer than 4 lanes (the rule
     *     of {@link VectorSupport#requireEnoughLanes()}, the same as the engine's kernels)
     */
    VectorPairKernels() {
        VectorSupport.requireEnoughLanes();
    }

    @Override
    public String name() {
        return "vector(" + F.vectorBitSize() + "-bit)";
    }

    @Override
    public void hingeRanksF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        VectorHingeKernels.ranksF32(s, y, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void hingeRankGradientF32(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out) {
        VectorHingeKernels.gradientF32(s, y, c, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void logisticPairsF32(float[] s, float[] y, float[] gain, float[] disc, int off, int m, int rowFrom,
            int rowTo, float sigma, float[] grad, float[] cost) {
        if (gain == null) {
            VectorLogisticKernels.rankNetF32(s, y, off, m, rowFrom, rowTo, sigma, grad, cost);
        } else {
            VectorLogisticKernels.lambdaRankF32(s, y, gain, disc, off, m, rowFrom, rowTo, sigma, grad, cost);
        }
    }

    @Override
    public void truncatedLambdasF32(float[] s, float[] y, float[] gain, float[] disc, float[] rank, int level,
            boolean scoreDistance, int off, int m, int rowFrom, int rowTo, float sigma, float[] grad, float[] lambdas) {
        VectorLogisticKernels.truncatedLambdasF32(s, y, gain, disc, rank, level, scoreDistance, off, m, rowFrom, rowTo,
                sigma, grad, lambdas);
    }

    // Each public method dispatches to a method holding both loops for one case, taking and
    // returning no vectors: if C2 declines to inline a call, vectors crossing it would be boxed.

    @Override
    public void approxRanksF32(float[] s, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        float[] p = expFactors(s, off, m, alpha);
        if (p != null) {
            approxRanksFactored(p, off, m, rowFrom, rowTo, out);
        } else {
            approxRanksDirect(s, off, m, rowFrom, rowTo, alpha, out);
        }
    }

    @Override
    public void rankGradientF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m, int rowFrom,
            int rowTo, float alpha, float[] out) {
        float[] p = expFactors(s, off, m, alpha);
        if (p != null) {
            switch (type) {
                case TYPE1 -> symmetricFactored(p, g, off, m, rowFrom, rowTo, alpha, out);
                case TYPE2 -> signedFactored(p, y, g, off, m, rowFrom, rowTo, -alpha, out);
                case TYPE3 -> amplifiedFactored(p, y, g, off, m, rowFrom, rowTo, 2f * alpha, out);
            }
        } else {
            switch (type) {
                case TYPE1 -> symmetricDirect(s, g, off, m, rowFrom, rowTo, alpha, out);
                case TYPE2 -> signedDirect(s, y, g, off, m, rowFrom, rowTo, alpha, -alpha, out);
                case TYPE3 -> amplifiedDirect(s, y, g, off, m, rowFrom, rowTo, alpha, 2f * alpha, out);
            }
        }
    }

    /**
     * P_j = e^{alpha (s_j - c)} for the query's documents, c the midpoint of its scores, computed
     * in float64 and rounded once to float32, so sb = sigma(alpha (s_k - s_j)) = P_k / (P_k + P_j)
     * and 1 - sb = P_j / (P_k + P_j) cost one division per pair instead of an exp. Null when
     * alpha (max - min) / 2 &gt; {@value #FACTOR_RANGE}: then some P_k + P_j could overflow or
     * vanish, and the caller evaluates exp per pair.
     */
    static float[] expFactors(float[] s, int off, int m, float alpha) {
        float min = Float.POSITIVE_INFINITY;
        float max = Float.NEGATIVE_INFINITY;
        for (int j = off; j < off + m; j++) {
            min = Math.min(min, s[j]);
            max = Math.max(max, s[j]);
        }
        double c = 0.5 * ((double) min + max);
        double a = alpha;
        if (m == 0 || a * ((double) max - min) > 2 * FACTOR_RANGE) {
            return null;
        }
        double[] e = new double[m];
        for (int j = 0; j < m; j++) {
            e[j] = s[off + j];
        }
        for (int j = 0; j < m; j += D.length()) {
            VectorMask<Double> lanes = D.indexInRange(j, m);
            VectorMath.exp(DoubleVector.fromArray(D, e, j, lanes).sub(c).mul(a)).intoArray(e, j, lanes);
        }
        float[] p = new float[m];
        for (int j = 0; j < m; j++) {
            p[j] = (float) e[j];
        }
        return p;
    }

    /** out[k] = 1/2 + sum_j P_j / (P_k + P_j). */
    private static void approxRanksFactored(float[] p, int off, int m, int rowFrom, int rowTo, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector acc = FloatVector.broadcast(F, 0.5f);
            for (int j = 0; j < m; j++) {
                acc = acc.add(ONE_F.div(pk.add(p[j])).mul(p[j]));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** out[k] = 1/2 + sum_j sigma(alpha (s_j - s_k)), exp per pair. */
    private static void approxRanksDirect(float[] s, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector acc = FloatVector.broadcast(F, 0.5f);
            for (int j = off; j < off + m; j++) {
                acc = acc.add(VectorMath.sigmoid(FloatVector.broadcast(F, s[j]).sub(sk).mul(alpha)));
            }
            acc.intoArray(out, kb, rows);
        }
    }

    /** out[k] = scale sum_j sb (1 - sb) (g_j - g_k), sb from the factors. */
    private static void symmetricFactored(float[] p, float[] g, int off, int m, int rowFrom, int rowTo, float scale,
            float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = 0; j < m; j++) {
                FloatVector inv = ONE_F.div(pk.add(p[j]));
                acc = pk.mul(inv).mul(inv.mul(p[j])).fma(gk.neg().add(g[off + j]), acc);
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /** out[k] = scale sum_j sign(y_k - y_j) sb (1 - sb) (g_k + g_j), sb from the factors. */
    private static void signedFactored(float[] p, float[] y, float[] g, int off, int m, int rowFrom, int rowTo,
            float scale, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = 0; j < m; j++) {
                FloatVector inv = ONE_F.div(pk.add(p[j]));
                FloatVector term = pk.mul(inv).mul(inv.mul(p[j])).mul(gk.add(g[off + j]));
                acc = acc.add(term, yk.compare(VectorOperators.GT, y[off + j]))
                        .sub(term, yk.compare(VectorOperators.LT, y[off + j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /**
     * out[k] = scale (sum_{j: y_j &gt; y_k} sb (g_k + g_j) - sum_{j: y_j &lt; y_k} (1 - sb) (g_k + g_j)),
     * sb from the factors.
     */
    private static void amplifiedFactored(float[] p, float[] y, float[] g, int off, int m, int rowFrom, int rowTo,
            float scale, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector pk = FloatVector.fromArray(F, p, kb - off, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = 0; j < m; j++) {
                FloatVector w = gk.add(g[off + j]).mul(ONE_F.div(pk.add(p[j])));
                acc = acc.add(pk.mul(w), yk.compare(VectorOperators.LT, y[off + j]))
                        .sub(w.mul(p[j]), yk.compare(VectorOperators.GT, y[off + j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /** out[k] = alpha sum_j sb (1 - sb) (g_j - g_k), exp per pair. */
    private static void symmetricDirect(float[] s, float[] g, int off, int m, int rowFrom, int rowTo, float alpha,
            float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                FloatVector sb = VectorMath.sigmoid(sk.sub(s[j]).mul(alpha));
                acc = sb.mul(sb.neg().add(1f)).fma(gk.neg().add(g[j]), acc);
            }
            acc.mul(alpha).intoArray(out, kb, rows);
        }
    }

    /** out[k] = scale sum_j sign(y_k - y_j) sb (1 - sb) (g_k + g_j), exp per pair. */
    private static void signedDirect(float[] s, float[] y, float[] g, int off, int m, int rowFrom, int rowTo,
            float alpha, float scale, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                FloatVector sb = VectorMath.sigmoid(sk.sub(s[j]).mul(alpha));
                FloatVector term = sb.mul(sb.neg().add(1f)).mul(gk.add(g[j]));
                acc = acc.add(term, yk.compare(VectorOperators.GT, y[j])).sub(term, yk.compare(VectorOperators.LT, y[j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /** out[k] = scale (sum_{j: y_j &gt; y_k} sb (g_k + g_j) - sum_{j: y_j &lt; y_k} (1 - sb) (g_k + g_j)), exp per pair. */
    private static void amplifiedDirect(float[] s, float[] y, float[] g, int off, int m, int rowFrom, int rowTo,
            float alpha, float scale, float[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector gk = FloatVector.fromArray(F, g, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector acc = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                FloatVector sb = VectorMath.sigmoid(sk.sub(s[j]).mul(alpha));
                FloatVector w = gk.add(g[j]);
                acc = acc.add(sb.mul(w), yk.compare(VectorOperators.LT, y[j]))
                        .sub(sb.neg().add(1f).mul(w), yk.compare(VectorOperators.GT, y[j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }
}
