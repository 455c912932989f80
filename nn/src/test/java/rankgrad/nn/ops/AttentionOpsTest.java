package rankgrad.nn.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * Values of the attention ops against a padded, masked reference written the textbook way, and
 * float64 gradient checks of each op and of a whole attention block with its weights as inputs.
 */
class AttentionOpsTest {
    /**
     * Gradient checks: the checker's error model gives about 1e-10 for quantities of order 1 at its
     * default step; 1e-6 leaves four orders of margin while a wrong index or factor errs by O(1).
     */
    private static final double GRAD_TOL = 1e-6;
    /** Float64 values: a few dozen roundings of sums of order 1. */
    private static final double F64_TOL = 1e-12;

    /** Three lists of 3, 1 and 4 documents (a single-document list and unequal lengths). */
    private static final int[] OFFSETS = {0, 3, 4, 8};

    private static Tensor random(long seed, int... shape) {
        SplittableRandom rng = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(DType.F64, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(-1, 1));
        }
        return t;
    }

    /**
     * The textbook padded attention: every list padded to the longest, scores to padding and to
     * other lists masked with -infinity before the softmax, one list at a time.
     */
    private static double[] paddedReference(Tensor q, Tensor k, Tensor v, int[] offsets, int heads) {
        int w = q.cols();
        int d = w / heads;
        int lists = offsets.length - 1;
        int longest = 0;
        for (int l = 0; l < lists; l++) {
            longest = Math.max(longest, offsets[l + 1] - offsets[l]);
        }
        double[] out = new double[q.size()];
        for (int l = 0; l < lists; l++) {
            int m = offsets[l + 1] - offsets[l];
            for (int h = 0; h < heads; h++) {
                for (int i = 0; i < m; i++) {
                    double[] logits = new double[longest];
                    for (int j = 0; j < longest; j++) {
                        if (j >= m) {
                            logits[j] = Double.NEGATIVE_INFINITY;
                            continue;
                        }
                        double dot = 0;
                        for (int c = 0; c < d; c++) {
                            dot += q.get(offsets[l] + i, h * d + c) * k.get(offsets[l] + j, h * d + c);
                        }
                        logits[j] = dot / Math.sqrt(d);
                    }
                    double max = Double.NEGATIVE_INFINITY;
                    for (double x : logits) {
                        max = Math.max(max, x);
                    }
                    double sum = 0;
                    for (double x : logits) {
                        sum += Math.exp(x - max);
                    }
                    for (int j = 0; j < m; j++) {
                        double p = Math.exp(logits[j] - max) / sum;
                        for (int c = 0; c < d; c++) {
                            out[(offsets[l] + i) * w + h * d + c] += p * v.get(offsets[l] + j, h * d + c);
                        }
                    }
                }
            }
        }
        return out;
    }

    private static Var attention(Var q, Var k, Var v, int[] offsets, int heads) {
        AttentionLayout layout = new AttentionLayout(offsets, heads);
        Var s = Var.apply(new AttentionScores(layout, 1 / Math.sqrt((double) q.value().cols() / heads)), q, k);
        return Var.apply(new AttentionMix(layout), Var.apply(new RaggedSoftmax(layout.rowStarts()), s), v);
    }

    @Test
    void layoutPlacesEachListsScoreBlocksOneAfterAnother() {
        AttentionLayout layout = new AttentionLayout(OFFSETS, 2);
        assertEquals(2 * (9 + 1 + 16), layout.scoreCount());
        assertArrayEquals(new int[] {0, 18, 20, 52}, layout.blockStarts());
        int[] rows = layout.rowStarts();
        assertEquals(2 * 8 + 1, rows.length);
        // list 0: 6 rows of 3, list 1: 2 rows of 1, list 2: 8 rows of 4
        assertArrayEquals(new int[] {0, 3, 6, 9, 12, 15, 18, 19, 20, 24}, java.util.Arrays.copyOf(rows, 10));
        assertEquals(52, rows[16]);
        assertThrows(IllegalArgumentException.class, () -> new AttentionLayout(new int[] {0, 3, 2}, 1));
        assertThrows(IllegalArgumentException.class, () -> new AttentionLayout(new int[] {1, 3}, 1));
    }

    @Test
    void raggedAttentionEqualsPaddedMaskedAttention() {
        for (int heads : new int[] {1, 2, 4}) {
            Tensor q = random(1, 8, 4);
            Tensor k = random(2, 8, 4);
            Tensor v = random(3, 8, 4);
            Var out = attention(Var.constant(q), Var.constant(k), Var.constant(v), OFFSETS, heads);
            assertArrayEquals(paddedReference(q, k, v, OFFSETS, heads), out.value().toDoubleArray(), F64_TOL,
                    heads + " heads");
        }
    }

    @Test
    void singleDocumentListAttendsOnlyToItself() {
        Tensor v = random(3, 8, 4);
        Var out = attention(Var.constant(random(1, 8, 4)), Var.constant(random(2, 8, 4)), Var.constant(v), OFFSETS, 2);
        for (int c = 0; c < 4; c++) {
            // weight exactly 1 on its own value: exp(0) / exp(0)
            assertEquals(v.get(3, c), out.value().get(3, c), 0.0);
        }
    }

    @Test
    void float32FollowsFloat64() {
        Tensor q = random(1, 8, 4);
        Tensor k = random(2, 8, 4);
        Tensor v = random(3, 8, 4);
        double[] f64 = attention(Var.constant(q), Var.constant(k), Var.constant(v), OFFSETS, 2).value().toDoubleArray();
        Var out32 = attention(Var.constant(q.to(DType.F32)), Var.constant(k.to(DType.F32)),
                Var.constant(v.to(DType.F32)), OFFSETS, 2);
        assertEquals(DType.F32, out32.dtype());
        // inputs rounded to float32 (6e-8 relative) then each op's output rounded once: values below 1
        // move by a few 1e-7
        assertArrayEquals(f64, out32.value().toDoubleArray(), 1e-6);
    }

    /**
     * The float32 path (float32 products, float64 softmax) against the float64 one on the demo's
     * shapes, lists of 50 documents and two heads of 32 columns, values and gradients. Its error:
     * the inputs' rounding (2^-24 relative), then each float32 sum of at most 50 terms of order 1
     * (the mix over a list; the scores sum 32) rounds up to 50 times at 2^-24 relative to the sum
     * of the terms' magnitudes, at worst about 3e-6 of the largest value, and the backward pass
     * chains three such sums (dP, dS, dQ). 3e-5 of the largest value of each tensor allows all
     * three with a factor of three to spare (the errors, of random sign, come to about 3e-7 here),
     * and a wrong index, head or scale errs by order 1.
     */
    @Test
    void float32PathAgreesWithFloat64OnDemoShapes() {
        int[] offsets = {0, 50, 100, 149, 199};
        int n = offsets[offsets.length - 1];
        int w = 64;
        Tensor[] in = {random(11, n, w), random(12, n, w), random(13, n, w)};
        Tensor seed = random(14, n, w);
        Var[] f64 = params(in);
        Var out64 = Var.apply(new ScaledDotProductAttention(new AttentionLayout(offsets, 2), 1 / Math.sqrt(32)), f64);
        out64.backward(seed);
        Var[] f32 = params(new Tensor[] {in[0].to(DType.F32), in[1].to(DType.F32), in[2].to(DType.F32)});
        Var out32 = Var.apply(new ScaledDotProductAttention(new AttentionLayout(offsets, 2), 1 / Math.sqrt(32)), f32);
        out32.backward(seed.to(DType.F32));
        assertEquals(DType.F32, out32.dtype());
        assertCloseToLargest("O", out64.value(), out32.value());
        for (int i = 0; i < 3; i++) {
            assertEquals(DType.F32, f32[i].grad().dtype());
            assertCloseToLargest("gradient of " + "QKV".charAt(i), f64[i].grad(), f32[i].grad());
        }
    }

    /** |actual - expected| &lt;= 3e-5 max |expected| element by element (see the caller). */
    private static void assertCloseToLargest(String what, Tensor expected, Tensor actual) {
        double largest = 0;
        for (int i = 0; i < expected.size(); i++) {
            largest = Math.max(largest, Math.abs(expected.get(i)));
        }
        assertArrayEquals(expected.toDoubleArray(), actual.toDoubleArray(), 3e-5 * largest, what);
    }

    @Test
    void raggedSoftmaxNormalizesEachRowAndSkipsEmptyRows() {
        int[] rows = {0, 2, 2, 5};
        Var y = Var.apply(new RaggedSoftmax(rows), Var.constant(Tensor.vector(1.0, 1.0, 0.0, 1000.0, 1000.0)));
        assertArrayEquals(new double[] {0.5, 0.5, 0.0, 0.5, 0.5}, y.value().toDoubleArray(), F64_TOL);
        assertThrows(IllegalArgumentException.class,
                () -> Var.apply(new RaggedSoftmax(rows), Var.constant(Tensor.vector(1.0, 2.0))));
        assertThrows(IllegalArgumentException.class, () -> new RaggedSoftmax(new int[] {0, 3, 1}));
    }

    @Test
    void raggedSoftmaxBackwardMatchesCentralDifferences() {
        GradientCheck.withDefaults().checkOp(new RaggedSoftmax(new int[] {0, 3, 3, 4, 9}), random(4, 9))
                .assertWithin(GRAD_TOL);
    }

    @Test
    void layerNormNormalizesRows() {
        Var y = Var.apply(new LayerNorm(0), Var.constant(Tensor.matrix(DType.F64, new double[][] {{1, 2, 3}, {-1, -1, 5}})),
                Var.constant(Tensor.vector(1.0, 1.0, 1.0)), Var.constant(Tensor.vector(0.0, 0.0, 0.0)));
        double r = Math.sqrt(1.5);
        assertArrayEquals(new double[] {-r, 0, r, -1 / Math.sqrt(2), -1 / Math.sqrt(2), Math.sqrt(2)},
                y.value().toDoubleArray(), F64_TOL);
        Var scaled = Var.apply(new LayerNorm(0), Var.constant(Tensor.matrix(DType.F64, new double[][] {{1, 2, 3}})),
                Var.constant(Tensor.vector(2.0, 2.0, 2.0)), Var.constant(Tensor.vector(1.0, 0.0, -1.0)));
        assertArrayEquals(new double[] {1 - 2 * r, 0, 2 * r - 1}, scaled.value().toDoubleArray(), F64_TOL);
    }

    @Test
    void layerNormBackwardMatchesCentralDifferences() {
        Tensor gamma = Tensor.vector(0.5, -1.5, 2.0, 1.0);
        Tensor beta = Tensor.vector(0.1, 0.2, -0.3, 0.0);
        GradientCheck.withDefaults().checkOp(new LayerNorm(1e-5), random(5, 3, 4), gamma, beta).assertWithin(GRAD_TOL);
    }

    @Test
    void scoresAndMixBackwardMatchCentralDifferences() {
        AttentionLayout layout = new AttentionLayout(OFFSETS, 2);
        GradientCheck.withDefaults().checkOp(new AttentionScores(layout, 0.7), random(1, 8, 4), random(2, 8, 4))
                .assertWithin(GRAD_TOL);
        GradientCheck.withDefaults().checkOp(new AttentionMix(layout), random(3, layout.scoreCount()), random(4, 8, 4))
                .assertWithin(GRAD_TOL);
    }

    /**
     * The same checks on lists and heads long enough for the vector kernels' paths: lists of 9, 1
     * and 13 documents (four-row blocks of scores with a remainder, masked columns of S), heads of
     * 10 columns (one vector and a masked tail with 4 or 8 double lanes) and one head of 36 (a
     * four-vector block of the mixes and a tail), and softmax rows past the eight partial sums.
     */
    @Test
    void backwardMatchesCentralDifferencesOnVectorSizedListsAndHeads() {
        int[] offsets = {0, 9, 10, 23};
        for (int heads : new int[] {2, 1}) {
            int w = heads == 2 ? 20 : 36;
            AttentionLayout layout = new AttentionLayout(offsets, heads);
            GradientCheck.withDefaults().checkOp(new AttentionScores(layout, 0.3), random(1, 23, w), random(2, 23, w))
                    .assertWithin(GRAD_TOL);
            GradientCheck.withDefaults().checkOp(new AttentionMix(layout), random(3, layout.scoreCount()),
                    random(4, 23, w)).assertWithin(GRAD_TOL);
            GradientCheck.withDefaults().checkOp(new RaggedSoftmax(layout.rowStarts()), random(5, layout.scoreCount()))
                    .assertWithin(GRAD_TOL);
        }
    }

    /**
     * The fused node gives the three ops' bits, forward and backward, in both dtypes: lists of 9, 1,
     * 13 and 50 documents (the demo's length), heads of 10, 36 and 32 columns (vector blocks, tails
     * and masks), and a seeded dO so that every gradient path is taken.
     */
    @Test
    void fusedAttentionEqualsScoresSoftmaxMixBitForBit() {
        int[] offsets = {0, 9, 10, 23, 73};
        for (DType dtype : DType.values()) {
            for (int heads : new int[] {2, 1}) {
                int w = heads == 2 ? 20 : 36;
                assertFusedEqualsUnfused(offsets, heads, w, dtype);
            }
            assertFusedEqualsUnfused(offsets, 2, 64, dtype);
        }
    }

    /**
     * The same where logits overflow: Q's and K's rows of the 13-document list times 1e20 (float32)
     * or 1e160 (float64), so that products there are +-infinity and sums and the softmax's x - max
     * NaN. The float32 node works on softmax rows padded past the list (-infinity, gradient 0),
     * which must leave such rows' bits as the unpadded op leaves them.
     */
    @Test
    void fusedAttentionEqualsUnfusedWhereLogitsOverflow() {
        int[] offsets = {0, 9, 10, 23, 73};
        for (DType dtype : DType.values()) {
            double big = dtype == DType.F32 ? 1e20 : 1e160;
            Tensor q = random(1, 73, 20);
            Tensor k = random(2, 73, 20);
            for (int i = 10 * 20; i < 23 * 20; i++) {
                q.set(i, q.get(i) * big);
                k.set(i, k.get(i) * big);
            }
            assertFusedEqualsUnfused(offsets, 2, 20, dtype, q, k);
        }
    }

    private static void assertFusedEqualsUnfused(int[] offsets, int heads, int w, DType dtype) {
        int n = offsets[offsets.length - 1];
        assertFusedEqualsUnfused(offsets, heads, w, dtype, random(1, n, w), random(2, n, w));
    }

    private static void assertFusedEqualsUnfused(int[] offsets, int heads, int w, DType dtype, Tensor queries,
            Tensor keys) {
        int n = offsets[offsets.length - 1];
        Tensor[] in = {queries.to(dtype), keys.to(dtype), random(3, n, w).to(dtype)};
        Tensor seed = random(4, n, w).to(dtype);
        Var[] unfused = params(in);
        Var outUnfused = attention(unfused[0], unfused[1], unfused[2], offsets, heads);
        outUnfused.backward(seed);
        Var[] fused = params(in);
        Var outFused = Var.apply(new ScaledDotProductAttention(new AttentionLayout(offsets, heads),
                1 / Math.sqrt((double) w / heads)), fused[0], fused[1], fused[2]);
        outFused.backward(seed);
        String what = dtype + ", " + heads + " heads of " + w / heads;
        assertEquals(dtype, outFused.dtype());
        assertArrayEquals(outUnfused.value().toDoubleArray(), outFused.value().toDoubleArray(), 0.0, "O, " + what);
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(unfused[i].grad().toDoubleArray(), fused[i].grad().toDoubleArray(), 0.0,
                    "gradient of " + "QKV".charAt(i) + ", " + what);
        }
    }

    private static Var[] params(Tensor[] values) {
        Var[] v = new Var[values.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = Var.param(values[i].copy());
        }
        return v;
    }

    @Test
    void fusedAttentionBackwardMatchesCentralDifferences() {
        int[] offsets = {0, 9, 10, 23};
        for (int heads : new int[] {2, 1}) {
            int w = heads == 2 ? 20 : 36;
            GradientCheck.withDefaults().checkOp(new ScaledDotProductAttention(new AttentionLayout(offsets, heads), 0.4),
                    random(1, 23, w), random(2, 23, w), random(3, 23, w)).assertWithin(GRAD_TOL);
        }
    }

    @Test
    void fusedAttentionRefusesMismatchedInputs() {
        ScaledDotProductAttention op = new ScaledDotProductAttention(new AttentionLayout(OFFSETS, 2), 1);
        Var q = Var.constant(random(1, 8, 4));
        assertThrows(IllegalArgumentException.class, () -> Var.apply(op, q, q, Var.constant(random(2, 8, 6))));
        assertThrows(IllegalArgumentException.class,
                () -> Var.apply(op, q, Var.constant(random(2, 8, 4).to(DType.F32)), q));
        assertThrows(IllegalArgumentException.class, () -> Var.apply(op, q, q, Var.constant(random(2, 7, 4))));
    }

    /** The whole block, h + attention(h) through layer norm, with every weight a checked input. */
    @Test
    void attentionBlockBackwardMatchesCentralDifferences() {
        Tensor h = random(1, 8, 4);
        GradientCheck.withDefaults().withSeed(3).check(x -> {
            Var q = Ops.affine(x[0], x[1], x[2]);
            Var k = Ops.affine(x[0], x[3], x[2]);
            Var v = Ops.affine(x[0], x[4], x[2]);
            Var mixed = Ops.matmul(attention(q, k, v, OFFSETS, 2), x[5]);
            Var a = Var.apply(new LayerNorm(1e-5), Ops.add(x[0], mixed), x[6], x[7]);
            return Ops.add(x[0], Ops.mul(a, x[0]));
        }, h, random(2, 4, 4), random(3, 4), random(4, 4, 4), random(5, 4, 4), random(6, 4, 4),
                Tensor.vector(1.0, 0.5, 2.0, -1.0), random(7, 4)).assertWithin(GRAD_TOL);
    }

    @Test
    void scoresOfOneListIgnoreTheOtherLists() {
        AttentionLayout layout = new AttentionLayout(OFFSETS, 1);
        Tensor q = random(1, 8, 2);
        Tensor k = random(2, 8, 2);
        double[] before = Var.apply(new AttentionScores(layout, 1), Var.constant(q), Var.constant(k)).value().toDoubleArray();
        k.set(3 * 2, 100); // list 1's only document
        double[] after = Var.apply(new AttentionScores(layout, 1), Var.constant(q), Var.constant(k)).value().toDoubleArray();
        for (int i = 0; i < before.length; i++) {
            boolean listOne = i == 9;
            assertTrue(listOne ? before[i] != after[i] : before[i] == after[i], "score " + i);
        }
    }
}
