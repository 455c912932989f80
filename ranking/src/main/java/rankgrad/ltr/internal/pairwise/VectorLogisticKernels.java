package rankgrad.ltr.internal.pairwise;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import rankgrad.ltr.pairwise.PairTruncation;
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

    /**
     * LightGBM's LambdaRank ({@link PairKernels#truncatedLambdasF32}): LambdaRank's lanes, masked to
     * the pairs with a document within the top {@code level} positions, the weight optionally divided
     * by 0.01f + |s_k - s_j|, and the lead lanes' pair lambdas summed into {@code lambdas}.
     */
    static void truncatedLambdasF32(float[] s, float[] y, float[] gain, float[] disc, float[] rank, int level,
            boolean scoreDistance, int off, int m, int rowFrom, int rowTo, float sigma, float[] grad, float[] lambdas) {
        FloatVector one = FloatVector.broadcast(F, 1f);
        VectorMask<Float> all = F.maskAll(true);
        for (int kb = rowFrom; kb < rowTo; kb += F.length()) {
            VectorMask<Float> rows = F.indexInRange(kb, rowTo);
            FloatVector sk = FloatVector.fromArray(F, s, kb, rows);
            FloatVector yk = FloatVector.fromArray(F, y, kb, rows);
            FloatVector gk = FloatVector.fromArray(F, gain, kb, rows);
            FloatVector dk = FloatVector.fromArray(F, disc, kb, rows);
            VectorMask<Float> topK = FloatVector.fromArray(F, rank, kb, rows).compare(VectorOperators.LE, level);
            FloatVector g = FloatVector.zero(F);
            FloatVector c = FloatVector.zero(F);
            for (int j = off; j < off + m; j++) {
                VectorMask<Float> pairs = rank[j] <= level ? all : topK;
                VectorMask<Float> lead = yk.compare(VectorOperators.GT, y[j]).and(pairs);
                VectorMask<Float> trail = yk.compare(VectorOperators.LT, y[j]).and(pairs);
                FloatVector w = gk.sub(gain[j]).abs().mul(dk.sub(disc[j]).abs());
                FloatVector d = sk.sub(s[j]);
                if (scoreDistance) {
                    w = w.div(d.abs().add((float) PairTruncation.SCORE_DISTANCE_OFFSET));
                }
                FloatVector v = d.mul(sigma).lanewise(VectorOperators.NEG, lead);
                FloatVector e = VectorMath.exp(v.abs().neg());
                FloatVector r = one.div(one.add(e));
                FloatVector t = w.mul(sigma).mul(r.blend(e.mul(r), v.compare(VectorOperators.LT, 0f)));
                g = g.sub(t, lead).add(t, trail);
                c = c.add(t, lead);
            }
            g.intoArray(grad, kb, rows);
            c.intoArray(lambdas, kb, rows);
        }
    }
}
