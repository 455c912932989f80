package rankgrad.ltr.internal.pairwise;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;

/**
 * The RankNet and LambdaRank pair terms (Burges et al.; Yue and Burges Eq. 2; {@link
 * PairKernels#logisticPairsF32}) on the Vector API, one row k per lane, j summed in the order of
 * {@link ScalarPairKernels}. Part of {@link VectorPairKernels}, which alone calls it.
 *
 * <p>Per pair, with z = sigma_s (s_k - s_j): a lane where y_k &gt; y_j ("lead") needs sigma(-z)
 * for the gradient and softplus(-z) = log(1 + e^{-z}) for the cost, a lane where y_k &lt; y_j
 * ("trail") needs sigma(z), lanes with equal labels nothing. So each lane evaluates one argument v
 * (-z on lead lanes, z on trail lanes) and one exponential e = e^{-|v|} in (0, 1], from which
 * sigma(v) = 1 / (1 + e) or e / (1 + e) by the sign of v, and softplus(v) = max(v, 0) + log1p(e)
 * without overflow. The scalar kernel's products (w sigma_s) sigma and w softplus are kept
 * operation for operation; RankNet's unit weight makes them sigma_s sigma and softplus exactly,
 * so its loops skip the weight.
 */
final class VectorLogisticKernels {
    private static final VectorSpecies<Float> F = VectorSupport.FLOAT;
    private static final VectorSpecies<Double> D = VectorSupport.DOUBLE;

    private VectorLogisticKernels() {
    }

    /** RankNet: unit pair weights. */
    static void rankNetF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float sigma, float[] grad,
            float[] cost) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector g = FloatVector.zero(F);
            FloatVector c = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector z = sk.sub(s[j]).mul(sigma);
                FloatVector v = z.lanewise(VectorOperators.NEG, lead);
                FloatVector e = VectorMath.exp(v.abs().neg());
                FloatVector r = one.div(one.add(e));
                FloatVector t = r.blend(e.mul(r), v.compare(VectorOperators.LT, 0f)).mul(sigma);
                g = g.sub(t, lead).add(t, trail);
                c = c.add(v.max(0f).add(VectorMath.log1pUnit(e)), lead);
            }
            g.intoArray(grad, kb, rows);
            c.intoArray(cost, kb, rows);
        }
    }

    /** LambdaRank: w_kj = |gain_k - gain_j| |disc_k - disc_j|. */
    static void lambdaRankF32(float[] s, float[] y, float[] gain, float[] disc, int off, int m, int rowFrom, int rowTo,
            float sigma, float[] grad, float[] cost) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector gk = FloatVector.fromArray(F, gain, kb, rows);
            FloatVector dk = FloatVector.fromArray(F, disc, kb, rows);
            FloatVector g = FloatVector.zero(F);
            FloatVector c = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]);
                FloatVector w = gk.sub(gain[j]).abs().mul(dk.sub(disc[j]).abs());
                FloatVector z = sk.sub(s[j]).mul(sigma);
                FloatVector v = z.lanewise(VectorOperators.NEG, lead);
                FloatVector e = VectorMath.exp(v.abs().neg());
                FloatVector r = one.div(one.add(e));
                FloatVector t = w.mul(sigma).mul(r.blend(e.mul(r), v.compare(VectorOperators.LT, 0f)));
                g = g.sub(t, lead).add(t, trail);
                c = c.add(w.mul(v.max(0f).add(VectorMath.log1pUnit(e))), lead);
            }
            g.intoArray(grad, kb, rows);
            c.intoArray(cost, kb, rows);
        }
    }

    /** {@link #rankNetF32} in float64. */
    static void rankNetF64(double[] s, float[] y, int off, int m, int rowFrom, int rowTo, double sigma, double[] grad,
            double[] cost) {
        DoubleVector one = DoubleVector.broadcast(D, 1.0);
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector yk = VectorPairKernels.labelsF64(y, kb, rowTo);
            DoubleVector g = DoubleVector.zero(D);
            DoubleVector c = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                VectorMask<Double> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Double> trail = yk.compare(VectorOperators.LT, y[j]);
                DoubleVector z = sk.sub(s[j]).mul(sigma);
                DoubleVector v = z.lanewise(VectorOperators.NEG, lead);
                DoubleVector e = VectorMath.exp(v.abs().neg());
                DoubleVector r = one.div(one.add(e));
                DoubleVector t = r.blend(e.mul(r), v.compare(VectorOperators.LT, 0.0)).mul(sigma);
                g = g.sub(t, lead).add(t, trail);
                c = c.add(v.max(0.0).add(VectorMath.log1pUnit(e)), lead);
            }
            g.intoArray(grad, kb, rows);
            c.intoArray(cost, kb, rows);
        }
    }

    /** {@link #lambdaRankF32} in float64. */
    static void lambdaRankF64(double[] s, float[] y, double[] gain, double[] disc, int off, int m, int rowFrom,
            int rowTo, double sigma, double[] grad, double[] cost) {
        DoubleVector one = DoubleVector.broadcast(D, 1.0);
        for (int kb = rowFrom; kb < rowTo; kb += D.length()) {
            VectorMask<Double> rows = D.indexInRange(kb, rowTo);
            DoubleVector sk = DoubleVector.fromArray(D, s, kb, rows);
            DoubleVector yk = VectorPairKernels.labelsF64(y, kb, rowTo);
            DoubleVector gk = DoubleVector.fromArray(D, gain, kb, rows);
            DoubleVector dk = DoubleVector.fromArray(D, disc, kb, rows);
            DoubleVector g = DoubleVector.zero(D);
            DoubleVector c = DoubleVector.zero(D);
            for (int j = off; j < off + m; j++) {
                VectorMask<Double> lead = yk.compare(VectorOperators.GT, y[j]);
                VectorMask<Double> trail = yk.compare(VectorOperators.LT, y[j]);
                DoubleVector w = gk.sub(gain[j]).abs().mul(dk.sub(disc[j]).abs());
                DoubleVector z = sk.sub(s[j]).mul(sigma);
                DoubleVector v = z.lanewise(VectorOperators.NEG, lead);
                DoubleVector e = VectorMath.exp(v.abs().neg());
                DoubleVector r = one.div(one.add(e));
                DoubleVector t = w.mul(sigma).mul(r.blend(e.mul(r), v.compare(VectorOperators.LT, 0.0)));
                g = g.sub(t, lead).add(t, trail);
                c = c.add(w.mul(v.max(0.0).add(VectorMath.log1pUnit(e))), lead);
            }
            g.intoArray(grad, kb, rows);
            c.intoArray(cost, kb, rows);
        }
    }
}
