package rankgrad.ltr.pairwise;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * Pair kernels on the Panama Vector API, one row k per SIMD lane: for a block of rows, the loop
 * over j broadcasts s_j (and y_j, g_j) and updates every lane's sum, so each row is summed in the
 * scalar kernel's order and no cross-lane reduction is needed. A partial last block is masked.
 *
 * <p>Reproducibility: a result must not depend on whether a method runs interpreted, in C1 or in
 * C2. {@code VectorOperators.EXP} (SVML when compiled, per-lane {@code Math.exp} when not)
 * differs between those tiers, so exp here is the Cephes range reduction and polynomial written
 * in lanewise add, multiply, fma and integer conversions: correctly rounded IEEE operations, the
 * same in every tier, within 2 ulps of {@code Math.exp}.
 *
 * <p>Loaded reflectively by {@link PairKernelProvider} only when {@code jdk.incubator.vector} is
 * readable, so that nothing else in {@code rankgrad.ltr} links against the incubator module.
 * Constant factors (alpha, 2 alpha) are applied once at the end of a row, one of the reasons
 * results differ from {@link ScalarPairKernels} by rounding (never by summation order).
 */
public final class VectorPairKernels implements PairKernels {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final FloatVector ONE_F = FloatVector.broadcast(F, 1f);
    private static final DoubleVector ONE_D = DoubleVector.broadcast(D, 1.0);

    /** Largest |alpha (s - c)| for which {@link #expFactors} are used: P in [e^-80, e^80]. */
    private static final double FACTOR_RANGE = 80.0;
    /** Above this, e^x overflows (float32: e^88.72; float64: e^709.78) and sigma(-x) is 0. */
    private static final float EXP_MAX_F = 88f;
    private static final double EXP_MAX_D = 709.0;
    private static final float LOG2E_F = 1.44269504088896341f;
    private static final float ROUND_F = 0x1.8p23f;
    private static final float LN2_HI_F = 0.693359375f;
    private static final float LN2_LO_F = -2.12194440e-4f;
    private static final double LOG2E_D = 1.4426950408889634;
    private static final double ROUND_D = 0x1.8p52;
    private static final double LN2_HI_D = 6.93147180369123816490e-01;
    private static final double LN2_LO_D = 1.90821492927058770002e-10;
    /** Cephes expf: e^r = 1 + r + r^2 (((((c0 r + c1) r + c2) r + c3) r + c4) r + c5) for |r| &lt;= ln2/2. */
    private static final float[] CEPHES_F = {
        1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f,
    };
    /** 1 / i!, i = 0..13. */
    private static final double[] TAYLOR = new double[14];

    static {
        double factorial = 1;
        for (int i = 0; i < TAYLOR.length; i++) {
            factorial *= Math.max(1, i);
            TAYLOR[i] = 1.0 / factorial;
        }
    }

    /** For reflective loading by {@link PairKernelProvider}. */
    public VectorPairKernels() {
    }

    @Override
    public String name() {
        return "vector(" + F.vectorBitSize() + "-bit)";
    }

    @Override
    public void hingeRanksF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        ScalarPairKernels.INSTANCE.hingeRanksF32(s, y, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void hingeRanksF64(double[] s, float[] y, int off, int m, int rowFrom, int rowTo, double alpha,
            double[] out) {
        ScalarPairKernels.INSTANCE.hingeRanksF64(s, y, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void hingeRankGradientF32(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out) {
        ScalarPairKernels.INSTANCE.hingeRankGradientF32(s, y, c, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void hingeRankGradientF64(double[] s, float[] y, double[] c, int off, int m, int rowFrom, int rowTo,
            double alpha, double[] out) {
        ScalarPairKernels.INSTANCE.hingeRankGradientF64(s, y, c, off, m, rowFrom, rowTo, alpha, out);
    }

    @Override
    public void logisticPairsF32(float[] s, float[] y, float[] gain, float[] disc, int off, int m, int rowFrom,
            int rowTo, float sigma, float[] grad, float[] cost) {
        ScalarPairKernels.INSTANCE.logisticPairsF32(s, y, gain, disc, off, m, rowFrom, rowTo, sigma, grad, cost);
    }

    @Override
    public void logisticPairsF64(double[] s, float[] y, double[] gain, double[] disc, int off, int m, int rowFrom,
            int rowTo, double sigma, double[] grad, double[] cost) {
        ScalarPairKernels.INSTANCE.logisticPairsF64(s, y, gain, disc, off, m, rowFrom, rowTo, sigma, grad, cost);
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
    public void approxRanksF64(double[] s, int off, int m, int rowFrom, int rowTo, double alpha, double[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector acc = DoubleVector.broadcast(D, 0.5);
            for (int j = off; j < off + m; j++) {
                acc = acc.add(sigmoid(DoubleVector.broadcast(D, s[j]).sub(sk).mul(alpha)));
            }
            acc.intoArray(out, kb, rows);
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

    @Override
    public void rankGradientF64(BackwardType type, double[] s, float[] y, double[] g, int off, int m, int rowFrom,
            int rowTo, double alpha, double[] out) {
        switch (type) {
            case TYPE1 -> symmetricF64(s, g, off, m, rowFrom, rowTo, alpha, out);
            case TYPE2 -> signedF64(s, y, g, off, m, rowFrom, rowTo, alpha, -alpha, out);
            case TYPE3 -> amplifiedF64(s, y, g, off, m, rowFrom, rowTo, alpha, 2.0 * alpha, out);
        }
    }

    /**
     * P_j = e^{alpha (s_j - c)} for the query's documents, c the midpoint of its scores, computed
     * in float64 and rounded once to float32, so sb = sigma(alpha (s_k - s_j)) = P_k / (P_k + P_j)
     * and 1 - sb = P_j / (P_k + P_j) cost one division per pair instead of an exp. Null when
     * alpha (max - min) / 2 &gt; {@value #FACTOR_RANGE}: then some P_k + P_j could overflow or
     * vanish, and the caller evaluates exp per pair.
     */
    private static float[] expFactors(float[] s, int off, int m, float alpha) {
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
            exp(DoubleVector.fromArray(D, e, j, lanes).sub(c).mul(a)).intoArray(e, j, lanes);
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
                acc = acc.add(sigmoid(FloatVector.broadcast(F, s[j]).sub(sk).mul(alpha)));
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
                FloatVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
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
                FloatVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
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
                FloatVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
                FloatVector w = gk.add(g[j]);
                acc = acc.add(sb.mul(w), yk.compare(VectorOperators.LT, y[j]))
                        .sub(sb.neg().add(1f).mul(w), yk.compare(VectorOperators.GT, y[j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /** The float64 labels of rows kb.. (at most D.length(), fewer at rowTo), lane by lane. */
    private static DoubleVector labelsF64(float[] y, int kb, int rowTo) {
        // convertShape from float lanes to double lanes is not intrinsified and would box.
        double[] labels = new double[D.length()];
        for (int i = 0; i < labels.length && kb + i < rowTo; i++) {
            labels[i] = y[kb + i];
        }
        return DoubleVector.fromArray(D, labels, 0);
    }

    private static void symmetricF64(double[] s, double[] g, int off, int m, int rowFrom, int rowTo, double alpha,
            double[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector gk = DoubleVector.fromArray(D, g, kb, rows);
            DoubleVector acc = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                DoubleVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
                acc = sb.mul(sb.neg().add(1.0)).fma(gk.neg().add(g[j]), acc);
            }
            acc.mul(alpha).intoArray(out, kb, rows);
        }
    }

    private static void signedF64(double[] s, float[] y, double[] g, int off, int m, int rowFrom, int rowTo,
            double alpha, double scale, double[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector gk = DoubleVector.fromArray(D, g, kb, rows);
            DoubleVector yk = labelsF64(y, kb, rowTo);
            DoubleVector acc = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                DoubleVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
                DoubleVector term = sb.mul(sb.neg().add(1.0)).mul(gk.add(g[j]));
                acc = acc.add(term, yk.compare(VectorOperators.GT, y[j])).sub(term, yk.compare(VectorOperators.LT, y[j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    private static void amplifiedF64(double[] s, float[] y, double[] g, int off, int m, int rowFrom, int rowTo,
            double alpha, double scale, double[] out) {
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector gk = DoubleVector.fromArray(D, g, kb, rows);
            DoubleVector yk = labelsF64(y, kb, rowTo);
            DoubleVector acc = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                DoubleVector sb = sigmoid(sk.sub(s[j]).mul(alpha));
                DoubleVector w = gk.add(g[j]);
                acc = acc.add(sb.mul(w), yk.compare(VectorOperators.LT, y[j]))
                        .sub(sb.neg().add(1.0).mul(w), yk.compare(VectorOperators.GT, y[j]));
            }
            acc.mul(scale).intoArray(out, kb, rows);
        }
    }

    /** sigma(x) = 1 / (1 + e^{-x}) per lane; exactly 0 where e^{-x} overflows, as in the scalar kernel. */
    private static FloatVector sigmoid(FloatVector x) {
        FloatVector minusX = x.neg();
        return ONE_F.div(exp(minusX).add(1f)).blend(0f, minusX.compare(VectorOperators.GT, EXP_MAX_F));
    }

    private static DoubleVector sigmoid(DoubleVector x) {
        DoubleVector minusX = x.neg();
        return ONE_D.div(exp(minusX).add(1.0)).blend(0.0, minusX.compare(VectorOperators.GT, EXP_MAX_D));
    }

    /**
     * e^x for x clamped to [-87, 88] (Cephes expf): n = round(x / ln 2) by the 1.5 * 2^23 trick,
     * r = x - n ln 2 in two parts (Cody-Waite), e^r by a degree-7 minimax polynomial, times 2^n
     * built in the exponent bits.
     */
    private static FloatVector exp(FloatVector x) {
        FloatVector xc = x.max(-87f).min(EXP_MAX_F);
        FloatVector n = xc.fma(LOG2E_F, ROUND_F).sub(ROUND_F);
        // |n| <= 127 has 7 significant bits and LN2_HI_F 9: n * LN2_HI_F is exact.
        FloatVector r = xc.sub(n.mul(LN2_HI_F)).sub(n.mul(LN2_LO_F));
        FloatVector p = FloatVector.broadcast(F, CEPHES_F[0]);
        for (int i = 1; i < CEPHES_F.length; i++) {
            p = p.fma(r, FloatVector.broadcast(F, CEPHES_F[i]));
        }
        FloatVector er = p.fma(r.mul(r), r).add(1f);
        IntVector bits = ((IntVector) n.convert(VectorOperators.F2I, 0)).add(127).lanewise(VectorOperators.LSHL, 23);
        return er.mul(bits.reinterpretAsFloats());
    }

    /**
     * e^x for x clamped to [-708, 709]: the same reduction as the float version (1.5 * 2^52, fdlibm's
     * ln 2 split), e^r by its Taylor polynomial of degree 13 (truncation below 0.05 ulp for |r| &lt;= ln2/2).
     */
    private static DoubleVector exp(DoubleVector x) {
        DoubleVector xc = x.max(-708.0).min(EXP_MAX_D);
        DoubleVector n = xc.fma(LOG2E_D, ROUND_D).sub(ROUND_D);
        // |n| <= 1023 has 10 significant bits and LN2_HI_D 32 (21 trailing zero bits): n * LN2_HI_D is exact.
        DoubleVector r = xc.sub(n.mul(LN2_HI_D)).sub(n.mul(LN2_LO_D));
        DoubleVector p = DoubleVector.broadcast(D, TAYLOR[TAYLOR.length - 1]);
        for (int i = TAYLOR.length - 2; i >= 0; i--) {
            p = p.fma(r, DoubleVector.broadcast(D, TAYLOR[i]));
        }
        LongVector bits = ((LongVector) n.convert(VectorOperators.D2L, 0)).add(1023L).lanewise(VectorOperators.LSHL, 52);
        return p.mul(bits.reinterpretAsDoubles());
    }
}
