package rankgrad.nn.kernels;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import rankgrad.simd.internal.VectorSupport;
import rankgrad.testkit.KernelLaws;
import rankgrad.testkit.KernelLaws.Tolerance;

/**
 * Laws of nn's Vector API attention kernels: each gives its scalar reference's bits exactly, since
 * both sum every product element in the same order with separately rounded multiplies and adds,
 * and both sum a softmax row in the interface's eight-lane order with the same exp. Checked on the
 * list lengths and head widths where loop bounds, four-row and four-vector blocks and masked tails
 * go wrong, at unaligned offsets and row strides wider than a head, onto outputs that already hold
 * values, and with IEEE special values among the inputs; the float32 products likewise on random
 * list lengths and head widths. Runs again with 128-bit vectors (2 double, 4 float lanes) in the
 * surefire execution vector-128-bit.
 */
class VectorAttentionKernelProperties {
    private static final AttentionKernels VECTOR = new VectorAttentionKernels();
    private static final AttentionKernels SCALAR = NnKernelProvider.scalarAttention();
    /** Double lanes of this run's vectors. */
    private static final int DL = VectorSupport.DOUBLE.length();

    /** Documents of a list: empty, single, around one vector, four rows, and the demo's 50. */
    private static final Gen<Integer> LISTS = Generate.pick(List.of(0, 1, 2, 3, 4, 5, DL - 1, DL, DL + 1, 13, 50));
    /** Columns of a head: around one vector, four vectors (the mixes' block) and a block plus a tail. */
    private static final Gen<Integer> HEADS = Generate.pick(List.of(1, 2, DL - 1, DL, DL + 1, 4 * DL, 4 * DL + 1, 32,
            37));

    @Test
    void vectorScoresAndMixesEqualScalarBitForBit() {
        qt().withExamples(300).forAll(LISTS, HEADS, integers().between(0, 5), longs().all())
                .checkAssert((m, d, extra, seed) -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    int stride = d + extra;
                    int aOff = rnd.nextInt(4);
                    int bOff = rnd.nextInt(4);
                    int pOff = rnd.nextInt(4);
                    int rows = aOff + Math.max(0, m - 1) * stride + d + 4;
                    double[] a = mixed(rnd, rows);
                    double[] b = mixed(rnd, rows);
                    double[] p = mixed(rnd, pOff + m * m + 3);
                    double scale = rnd.nextBoolean() ? 1.0 : rnd.nextDouble(-2, 2);
                    String where = "m=" + m + " d=" + d + " stride=" + stride + " offsets " + aOff + "," + bOff + ","
                            + pOff + " scale=" + scale + " seed=" + seed;

                    double[] s0 = mixed(rnd, pOff + m * m + 3);
                    double[] s1 = s0.clone();
                    SCALAR.scoresF64(a, aOff, b, bOff, stride, m, d, scale, s0, pOff);
                    VECTOR.scoresF64(a, aOff, b, bOff, stride, m, d, scale, s1, pOff);
                    KernelLaws.assertVectorEqualsScalar("scores " + where, s0, s1, Tolerance.EXACT);

                    double[] o0 = mixed(rnd, rows);
                    double[] o1 = o0.clone();
                    SCALAR.mixF64(p, pOff, b, bOff, stride, m, d, scale, o0, aOff);
                    VECTOR.mixF64(p, pOff, b, bOff, stride, m, d, scale, o1, aOff);
                    KernelLaws.assertVectorEqualsScalar("mix " + where, o0, o1, Tolerance.EXACT);

                    double[] t0 = mixed(rnd, rows);
                    double[] t1 = t0.clone();
                    SCALAR.mixTransposedF64(p, pOff, a, aOff, stride, m, d, scale, t0, bOff);
                    VECTOR.mixTransposedF64(p, pOff, a, aOff, stride, m, d, scale, t1, bOff);
                    KernelLaws.assertVectorEqualsScalar("mixTransposed " + where, t0, t1, Tolerance.EXACT);
                });
    }

    /**
     * The float32 products on any list length (1 .. 70: four-row tiles and their remainder, one or
     * several pairs of vectors of S, the last one partial) and head width (1 .. 80: pairs of
     * vectors, a single one, scalar columns), at offsets, with row strides wider than a head, with
     * any scale, onto outputs that already hold values, with special values among the inputs.
     */
    @Test
    void vectorFloatScoresAndMixesEqualScalarBitForBit() {
        qt().withExamples(300).forAll(integers().between(1, 70), integers().between(1, 80), integers().between(0, 5),
                longs().all()).checkAssert((m, d, extra, seed) -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    int stride = d + extra;
                    int aOff = rnd.nextInt(4);
                    int bOff = rnd.nextInt(4);
                    int pOff = rnd.nextInt(4);
                    int rows = Math.max(aOff, bOff) + (m - 1) * stride + d + 4;
                    float[] a = mixedFloats(rnd, rows);
                    float[] b = mixedFloats(rnd, rows);
                    float[] p = mixedFloats(rnd, pOff + m * m + 3);
                    float scale = rnd.nextBoolean() ? 1f : (float) rnd.nextDouble(-2, 2);
                    String where = "m=" + m + " d=" + d + " stride=" + stride + " offsets " + aOff + "," + bOff + ","
                            + pOff + " scale=" + scale + " seed=" + seed;

                    float[] s0 = mixedFloats(rnd, pOff + m * m + rnd.nextInt(4));
                    float[] s1 = s0.clone();
                    SCALAR.scoresF32(a, aOff, b, bOff, stride, m, d, scale, s0, pOff);
                    VECTOR.scoresF32(a, aOff, b, bOff, stride, m, d, scale, s1, pOff);
                    KernelLaws.assertVectorEqualsScalar("scoresF32 " + where, s0, s1, Tolerance.EXACT);

                    float[] o0 = mixedFloats(rnd, rows);
                    float[] o1 = o0.clone();
                    SCALAR.mixF32(p, pOff, b, bOff, stride, m, d, scale, o0, aOff);
                    VECTOR.mixF32(p, pOff, b, bOff, stride, m, d, scale, o1, aOff);
                    KernelLaws.assertVectorEqualsScalar("mixF32 " + where, o0, o1, Tolerance.EXACT);

                    float[] t0 = mixedFloats(rnd, rows);
                    float[] t1 = t0.clone();
                    SCALAR.mixTransposedF32(p, pOff, a, aOff, stride, m, d, scale, t0, bOff);
                    VECTOR.mixTransposedF32(p, pOff, a, aOff, stride, m, d, scale, t1, bOff);
                    KernelLaws.assertVectorEqualsScalar("mixTransposedF32 " + where, t0, t1, Tolerance.EXACT);
                });
    }

    /**
     * The softmax and its backward, on rows around the eight partial sums and the vector width;
     * one row in three has special values (NaN, infinities, 1e300 that overflows x - max, both
     * zeros), the rest logits of attention's size, where the sum's order decides the last bit. The
     * array ends 2 or 2 + 8 values past the row: a last partial vector then reaches past the
     * array's end (masked loads) or lies inside it over values of the next row (whole loads).
     */
    @Test
    void vectorSoftmaxEqualsScalarBitForBit() {
        Gen<Integer> lengths = Generate.pick(List.of(0, 1, 2, DL - 1, DL, DL + 1, 7, 8, 9, 15, 16, 17, 50, 203));
        qt().withExamples(300).forAll(lengths, integers().between(0, 3), longs().all()).checkAssert((n, off, seed) -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            boolean specials = rnd.nextInt(3) == 0;
            double[] x = new double[off + n + 2 + (rnd.nextBoolean() ? 8 : 0)];
            double[] g = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = specials ? special(rnd) : rnd.nextDouble(-30, 30);
                g[i] = specials ? special(rnd) : rnd.nextDouble(-1, 1);
            }
            String where = "n=" + n + " off=" + off + " seed=" + seed;
            double[] y0 = mixed(rnd, x.length);
            double[] y1 = y0.clone();
            SCALAR.softmaxF64(x, y0, off, n);
            VECTOR.softmaxF64(x, y1, off, n);
            KernelLaws.assertVectorEqualsScalar("softmax " + where, y0, y1, Tolerance.EXACT);

            double[] d0 = mixed(rnd, x.length);
            double[] d1 = d0.clone();
            SCALAR.softmaxBackwardF64(y0, g, d0, off, n);
            VECTOR.softmaxBackwardF64(y0, g, d1, off, n);
            KernelLaws.assertVectorEqualsScalar("softmaxBackward " + where, d0, d1, Tolerance.EXACT);
        });
    }

    /** Ordinary values in [-3, 3], one in six a special value. */
    private static double[] mixed(SplittableRandom rnd, int length) {
        double[] x = new double[length];
        for (int i = 0; i < length; i++) {
            x[i] = rnd.nextInt(6) == 0 ? special(rnd) : rnd.nextDouble(-3, 3);
        }
        return x;
    }

    /** Ordinary values in [-3, 3], one in six a special value, as floats. */
    private static float[] mixedFloats(SplittableRandom rnd, int length) {
        float[] x = new float[length];
        for (int i = 0; i < length; i++) {
            x[i] = (float) (rnd.nextInt(6) == 0 ? special(rnd) : rnd.nextDouble(-3, 3));
        }
        return x;
    }

    private static double special(SplittableRandom rnd) {
        double[] boundary = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_NORMAL / 3, 1e300, -1e300, Double.MAX_VALUE,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1.0, -1.0};
        return boundary[rnd.nextInt(boundary.length)];
    }
}
