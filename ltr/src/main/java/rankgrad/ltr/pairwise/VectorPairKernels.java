package rankgrad.ltr.pairwise;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * Pair kernels on the Panama Vector API: the j loop of a row runs on SIMD lanes, exp through
 * {@code VectorOperators.EXP} (SVML on x86), one accumulator reduced once at the end.
 *
 * <p>Loaded reflectively by {@link PairKernelProvider} only when {@code jdk.incubator.vector} is
 * readable, so that nothing else in {@code rankgrad.ltr} links against the incubator module.
 * Unlike the engine's arithmetic kernels these loops vectorize at every length, tail included
 * (a masked last step): each lane evaluates an exp, which costs far more than the one reduction,
 * so even a query of a few documents gains from the lanes. Constant factors (alpha, 2 alpha) are
 * applied once after the reduction, which is why results differ from {@link ScalarPairKernels}
 * by rounding only.
 */
public final class VectorPairKernels implements PairKernels {
    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    /** Float lanes matching D's lane count, to load float32 labels beside float64 scores. */
    private static final VectorSpecies<Float> F_FOR_D =
            VectorSpecies.of(float.class, VectorShape.forBitSize(D.vectorBitSize() / 2));
    private static final FloatVector ONE_F = FloatVector.broadcast(F, 1f);
    private static final DoubleVector ONE_D = DoubleVector.broadcast(D, 1.0);

    /** For reflective loading by {@link PairKernelProvider}. */
    public VectorPairKernels() {
    }

    @Override
    public String name() {
        return "vector(" + F.vectorBitSize() + "-bit)";
    }

    @Override
    public float sigmoidRowSumF32(float[] s, int off, int m, float si, float alpha) {
        FloatVector vsi = FloatVector.broadcast(F, si);
        FloatVector va = FloatVector.broadcast(F, alpha);
        FloatVector acc = FloatVector.zero(F);
        int j = 0;
        for (int bound = F.loopBound(m); j < bound; j += F.length()) {
            FloatVector sj = FloatVector.fromArray(F, s, off + j);
            acc = acc.add(sigmoid(va.mul(sj.sub(vsi))));
        }
        if (j < m) {
            VectorMask<Float> tail = F.indexInRange(j, m);
            FloatVector sj = FloatVector.fromArray(F, s, off + j, tail);
            acc = acc.add(sigmoid(va.mul(sj.sub(vsi))), tail);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    @Override
    public double sigmoidRowSumF64(double[] s, int off, int m, double si, double alpha) {
        DoubleVector vsi = DoubleVector.broadcast(D, si);
        DoubleVector va = DoubleVector.broadcast(D, alpha);
        DoubleVector acc = DoubleVector.zero(D);
        int j = 0;
        for (int bound = D.loopBound(m); j < bound; j += D.length()) {
            DoubleVector sj = DoubleVector.fromArray(D, s, off + j);
            acc = acc.add(sigmoid(va.mul(sj.sub(vsi))));
        }
        if (j < m) {
            VectorMask<Double> tail = D.indexInRange(j, m);
            DoubleVector sj = DoubleVector.fromArray(D, s, off + j, tail);
            acc = acc.add(sigmoid(va.mul(sj.sub(vsi))), tail);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    @Override
    public float rankGradientRowF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m,
            float sk, float yk, float gk, float alpha) {
        return switch (type) {
            case TYPE1 -> alpha * symmetricF32(s, g, off, m, sk, gk, alpha);
            case TYPE2 -> -alpha * signedF32(s, y, g, off, m, sk, yk, gk, alpha);
            case TYPE3 -> 2f * alpha * amplifiedF32(s, y, g, off, m, sk, yk, gk, alpha);
        };
    }

    @Override
    public double rankGradientRowF64(BackwardType type, double[] s, float[] y, double[] g, int off, int m,
            double sk, float yk, double gk, double alpha) {
        return switch (type) {
            case TYPE1 -> alpha * symmetricF64(s, g, off, m, sk, gk, alpha);
            case TYPE2 -> -alpha * signedF64(s, y, g, off, m, sk, yk, gk, alpha);
            case TYPE3 -> 2.0 * alpha * amplifiedF64(s, y, g, off, m, sk, yk, gk, alpha);
        };
    }

    /** sum_j sb (1 - sb) (g_j - g_k). */
    private static float symmetricF32(float[] s, float[] g, int off, int m, float sk, float gk, float alpha) {
        FloatVector vsk = FloatVector.broadcast(F, sk);
        FloatVector vgk = FloatVector.broadcast(F, gk);
        FloatVector va = FloatVector.broadcast(F, alpha);
        FloatVector acc = FloatVector.zero(F);
        int j = 0;
        for (int bound = F.loopBound(m); j < bound; j += F.length()) {
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j))));
            FloatVector dg = FloatVector.fromArray(F, g, off + j).sub(vgk);
            acc = sb.mul(sb.neg().add(1f)).fma(dg, acc);
        }
        if (j < m) {
            VectorMask<Float> tail = F.indexInRange(j, m);
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j, tail))));
            FloatVector dg = FloatVector.fromArray(F, g, off + j, tail).sub(vgk);
            acc = acc.add(sb.mul(sb.neg().add(1f)).mul(dg), tail);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** sum_j sign(y_k - y_j) sb (1 - sb) (g_k + g_j). */
    private static float signedF32(float[] s, float[] y, float[] g, int off, int m, float sk, float yk, float gk,
            float alpha) {
        FloatVector vsk = FloatVector.broadcast(F, sk);
        FloatVector vgk = FloatVector.broadcast(F, gk);
        FloatVector va = FloatVector.broadcast(F, alpha);
        FloatVector acc = FloatVector.zero(F);
        int j = 0;
        for (int bound = F.loopBound(m); j < bound; j += F.length()) {
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j))));
            FloatVector yj = FloatVector.fromArray(F, y, off + j);
            FloatVector term = sb.mul(sb.neg().add(1f)).mul(FloatVector.fromArray(F, g, off + j).add(vgk));
            acc = acc.add(term, yj.compare(VectorOperators.LT, yk)).sub(term, yj.compare(VectorOperators.GT, yk));
        }
        if (j < m) {
            VectorMask<Float> tail = F.indexInRange(j, m);
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j, tail))));
            FloatVector yj = FloatVector.fromArray(F, y, off + j, tail);
            FloatVector term = sb.mul(sb.neg().add(1f)).mul(FloatVector.fromArray(F, g, off + j, tail).add(vgk));
            acc = acc.add(term, yj.compare(VectorOperators.LT, yk).and(tail))
                    .sub(term, yj.compare(VectorOperators.GT, yk).and(tail));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** sum_{j: y_j > y_k} sb (g_k + g_j) - sum_{j: y_j < y_k} (1 - sb) (g_k + g_j). */
    private static float amplifiedF32(float[] s, float[] y, float[] g, int off, int m, float sk, float yk, float gk,
            float alpha) {
        FloatVector vsk = FloatVector.broadcast(F, sk);
        FloatVector vgk = FloatVector.broadcast(F, gk);
        FloatVector va = FloatVector.broadcast(F, alpha);
        FloatVector acc = FloatVector.zero(F);
        int j = 0;
        for (int bound = F.loopBound(m); j < bound; j += F.length()) {
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j))));
            FloatVector yj = FloatVector.fromArray(F, y, off + j);
            FloatVector w = FloatVector.fromArray(F, g, off + j).add(vgk);
            acc = acc.sub(sb.neg().add(1f).mul(w), yj.compare(VectorOperators.LT, yk))
                    .add(sb.mul(w), yj.compare(VectorOperators.GT, yk));
        }
        if (j < m) {
            VectorMask<Float> tail = F.indexInRange(j, m);
            FloatVector sb = sigmoid(va.mul(vsk.sub(FloatVector.fromArray(F, s, off + j, tail))));
            FloatVector yj = FloatVector.fromArray(F, y, off + j, tail);
            FloatVector w = FloatVector.fromArray(F, g, off + j, tail).add(vgk);
            acc = acc.sub(sb.neg().add(1f).mul(w), yj.compare(VectorOperators.LT, yk).and(tail))
                    .add(sb.mul(w), yj.compare(VectorOperators.GT, yk).and(tail));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    private static double symmetricF64(double[] s, double[] g, int off, int m, double sk, double gk, double alpha) {
        DoubleVector vsk = DoubleVector.broadcast(D, sk);
        DoubleVector vgk = DoubleVector.broadcast(D, gk);
        DoubleVector va = DoubleVector.broadcast(D, alpha);
        DoubleVector acc = DoubleVector.zero(D);
        int j = 0;
        for (int bound = D.loopBound(m); j < bound; j += D.length()) {
            DoubleVector sb = sigmoid(va.mul(vsk.sub(DoubleVector.fromArray(D, s, off + j))));
            DoubleVector dg = DoubleVector.fromArray(D, g, off + j).sub(vgk);
            acc = sb.mul(sb.neg().add(1.0)).fma(dg, acc);
        }
        if (j < m) {
            VectorMask<Double> tail = D.indexInRange(j, m);
            DoubleVector sb = sigmoid(va.mul(vsk.sub(DoubleVector.fromArray(D, s, off + j, tail))));
            DoubleVector dg = DoubleVector.fromArray(D, g, off + j, tail).sub(vgk);
            acc = acc.add(sb.mul(sb.neg().add(1.0)).mul(dg), tail);
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    private static double signedF64(double[] s, float[] y, double[] g, int off, int m, double sk, float yk,
            double gk, double alpha) {
        DoubleVector vsk = DoubleVector.broadcast(D, sk);
        DoubleVector vgk = DoubleVector.broadcast(D, gk);
        DoubleVector va = DoubleVector.broadcast(D, alpha);
        DoubleVector acc = DoubleVector.zero(D);
        for (int j = 0; j < m; j += D.length()) {
            VectorMask<Double> tail = D.indexInRange(j, m);
            VectorMask<Float> tailF = F_FOR_D.indexInRange(j, m);
            DoubleVector sb = sigmoid(va.mul(vsk.sub(DoubleVector.fromArray(D, s, off + j, tail))));
            FloatVector yj = FloatVector.fromArray(F_FOR_D, y, off + j, tailF);
            DoubleVector term = sb.mul(sb.neg().add(1.0)).mul(DoubleVector.fromArray(D, g, off + j, tail).add(vgk));
            acc = acc.add(term, yj.compare(VectorOperators.LT, yk).and(tailF).cast(D))
                    .sub(term, yj.compare(VectorOperators.GT, yk).and(tailF).cast(D));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    private static double amplifiedF64(double[] s, float[] y, double[] g, int off, int m, double sk, float yk,
            double gk, double alpha) {
        DoubleVector vsk = DoubleVector.broadcast(D, sk);
        DoubleVector vgk = DoubleVector.broadcast(D, gk);
        DoubleVector va = DoubleVector.broadcast(D, alpha);
        DoubleVector acc = DoubleVector.zero(D);
        for (int j = 0; j < m; j += D.length()) {
            VectorMask<Double> tail = D.indexInRange(j, m);
            VectorMask<Float> tailF = F_FOR_D.indexInRange(j, m);
            DoubleVector sb = sigmoid(va.mul(vsk.sub(DoubleVector.fromArray(D, s, off + j, tail))));
            FloatVector yj = FloatVector.fromArray(F_FOR_D, y, off + j, tailF);
            DoubleVector w = DoubleVector.fromArray(D, g, off + j, tail).add(vgk);
            acc = acc.sub(sb.neg().add(1.0).mul(w), yj.compare(VectorOperators.LT, yk).and(tailF).cast(D))
                    .add(sb.mul(w), yj.compare(VectorOperators.GT, yk).and(tailF).cast(D));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /** sigma(x) = 1 / (1 + e^{-x}) per lane; e^{-x} = +inf gives exactly 0. */
    private static FloatVector sigmoid(FloatVector x) {
        return ONE_F.div(x.neg().lanewise(VectorOperators.EXP).add(1f));
    }

    private static DoubleVector sigmoid(DoubleVector x) {
        return ONE_D.div(x.neg().lanewise(VectorOperators.EXP).add(1.0));
    }
}
