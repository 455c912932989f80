package rankgrad.nn.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arrays;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.floats;
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
 * Laws of nn's Vector API kernels: each gives its scalar reference's bits exactly (both round
 * every float32 operation on its own and sum each float64 column in row order), on the sizes
 * where loop bounds and tails go wrong, on unaligned offsets and on IEEE special values.
 */
class VectorNnKernelProperties {
    private static final NnKernels VECTOR = new VectorNnKernels();
    private static final NnKernels SCALAR = NnKernelProvider.scalar();
    private static final int L = VectorSupport.LANES;

    /**
     * The Adam step rounds every operation on its own in both kernels (no fused multiply-add, IEEE
     * sqrt and divide), so the vector kernel must give the scalar kernel's bits exactly, subnormal
     * flushing, infinities and NaN included.
     */
    @Test
    void vectorAdamStepEqualsScalarAdamStepBitForBit() {
        Gen<Integer> sizes = Generate.pick(List.of(0, 1, L - 1, L, L + 1, 13, 207, 4098));
        Gen<float[][]> arrays = sizes.flatMap(n -> values(true, n).zip(values(true, n), values(true, n),
                values(false, n), (p, g, m, v) -> {
                    for (int i = 0; i < n; i++) {
                        v[i] = Math.abs(v[i]);
                    }
                    return new float[][] {p, g, m, v};
                }));
        Gen<AdamCoefficients> coefficients = floats().between(0f, 0.9999f).zip(floats().between(0f, 0.9999f),
                floats().between(1e-6f, 1f), floats().between(0f, 0.1f), booleans().all(), (b1, b2, lr, decay, decoupled) ->
                        new AdamCoefficients(decoupled ? 1 - lr * decay : 1f, decoupled ? 0f : decay, b1, 1 - b1, b2, 1 - b2,
                                lr / (1 - b1 * b1), (float) Math.sqrt(1 - b2 * b2), 1e-8f));
        // Shrinking arrays of 4098 floats element by element is slow: 200 cycles still reach a small
        // counterexample while keeping a failure report within seconds.
        qt().withExamples(200).withShrinkCycles(200).forAll(arrays, coefficients).checkAssert((x, c) -> {
            int n = x[0].length;
            float[][] scalar = {x[0].clone(), x[1].clone(), x[2].clone(), x[3].clone()};
            float[][] vector = {x[0].clone(), x[1].clone(), x[2].clone(), x[3].clone()};
            SCALAR.adamF32(scalar[0], scalar[1], scalar[2], scalar[3], n, c);
            VECTOR.adamF32(vector[0], vector[1], vector[2], vector[3], n, c);
            String[] names = {"p", "g", "m", "v"};
            for (int a = 0; a < 4; a++) {
                for (int i = 0; i < n; i++) {
                    int k = a;
                    int j = i;
                    assertEquals(Float.floatToIntBits(scalar[a][i]), Float.floatToIntBits(vector[a][i]),
                            () -> names[k] + "[" + j + "] of " + n + " from p=" + x[0][j] + " g=" + x[1][j] + " m=" + x[2][j]
                                    + " v=" + x[3][j] + " " + c);
                }
            }
        });
    }

    /**
     * The fused bias + batch norm + ReLU kernels round every float32 operation alike and sum each
     * float64 column in row order in both implementations: bit equality, including NaN, infinities,
     * signed zeros and subnormals, for row lengths around the vector width and row ranges around the
     * vector kernels' block of rows (summed in registers, then stored).
     */
    @Test
    void vectorBatchNormReluKernelsEqualScalarBitForBit() {
        Gen<Integer> sizes = Generate.pick(List.of(0, 1, L - 1, L, L + 1, 2 * L + 1, 13, 100, 207));
        Gen<Integer> rowCounts = Generate.pick(List.of(1, 2, 7, 8, 9, 17, 25));
        qt().withExamples(300).forAll(sizes, rowCounts, integers().between(0, 3), longs().all())
                .checkAssert((n, rows, skip, seed) -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            int from = Math.min(skip, rows - 1);
            int to = rows;
            float[] z = mixed(rnd, rows * n);
            float[] g = mixed(rnd, rows * n);
            float[] y = mixed(rnd, rows * n);
            float[][] rowParams = new float[7][];
            for (int p = 0; p < rowParams.length; p++) {
                rowParams[p] = mixed(rnd, n);
            }
            float[] bias = rowParams[0];
            float[] mu = rowParams[1];
            double[] mean = new double[n];
            double[][] acc = new double[2][n];
            for (int j = 0; j < n; j++) {
                mean[j] = rnd.nextDouble(-100, 100);
                acc[0][j] = rnd.nextDouble(-1e3, 1e3);
                acc[1][j] = rnd.nextDouble(-1e3, 1e3);
            }
            String where = "cols=" + n + " rows " + from + ".." + to + " seed=" + seed;
            double[][] s1 = {acc[0].clone(), acc[1].clone()};
            double[][] v1 = {acc[0].clone(), acc[1].clone()};
            SCALAR.biasedColumnSumsF32(z, bias, s1[0], from, to, n);
            VECTOR.biasedColumnSumsF32(z, bias, v1[0], from, to, n);
            SCALAR.biasedSquaredDeviationsF32(z, bias, mean, s1[1], from, to, n);
            VECTOR.biasedSquaredDeviationsF32(z, bias, mean, v1[1], from, to, n);
            KernelLaws.assertVectorEqualsScalar("biasedColumnSums " + where, s1[0], v1[0], Tolerance.EXACT);
            KernelLaws.assertVectorEqualsScalar("biasedSquaredDeviations " + where, s1[1], v1[1], Tolerance.EXACT);

            float[] ys = y.clone();
            float[] yv = y.clone();
            SCALAR.batchNormReluF32(z, bias, mu, rowParams[2], rowParams[3], ys, from, to, n);
            VECTOR.batchNormReluF32(z, bias, mu, rowParams[2], rowParams[3], yv, from, to, n);
            KernelLaws.assertVectorEqualsScalar("batchNormRelu " + where, ys, yv, Tolerance.EXACT);

            double[][] s2 = {acc[0].clone(), acc[1].clone()};
            double[][] v2 = {acc[0].clone(), acc[1].clone()};
            SCALAR.batchNormReluSumsF32(y, g, z, bias, mu, s2[0], s2[1], from, to, n);
            VECTOR.batchNormReluSumsF32(y, g, z, bias, mu, v2[0], v2[1], from, to, n);
            KernelLaws.assertVectorEqualsScalar("batchNormReluSums dy " + where, s2[0], v2[0], Tolerance.EXACT);
            KernelLaws.assertVectorEqualsScalar("batchNormReluSums dy*xc " + where, s2[1], v2[1], Tolerance.EXACT);

            float[] ds = y.clone();
            float[] dv = y.clone();
            double[] cs = acc[0].clone();
            double[] cv = acc[0].clone();
            SCALAR.batchNormReluInputGradF32(y, g, z, bias, mu, rowParams[4], rowParams[5], rowParams[6], ds, cs, from, to, n);
            VECTOR.batchNormReluInputGradF32(y, g, z, bias, mu, rowParams[4], rowParams[5], rowParams[6], dv, cv, from, to, n);
            KernelLaws.assertVectorEqualsScalar("batchNormReluInputGrad dz " + where, ds, dv, Tolerance.EXACT);
            KernelLaws.assertVectorEqualsScalar("batchNormReluInputGrad sums " + where, cs, cv, Tolerance.EXACT);
        });
    }

    /** Ordinary values in [-120, 120], one in five a boundary value (zeros, subnormals, MAX, infinities, NaN). */
    private static float[] mixed(SplittableRandom rnd, int length) {
        float[] boundary = {0f, -0f, Float.MIN_VALUE, -Float.MIN_NORMAL / 3, 1e15f, -1e15f, Float.MAX_VALUE,
            -Float.MAX_VALUE, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NaN};
        float[] x = new float[length];
        for (int i = 0; i < length; i++) {
            x[i] = rnd.nextInt(5) == 0 ? boundary[rnd.nextInt(boundary.length)] : (float) rnd.nextDouble(-120, 120);
        }
        return x;
    }

    /**
     * Arrays of mostly ordinary magnitudes, one in five a boundary value; with {@code specials} the
     * boundary values include +-MAX_VALUE, +-infinity and NaN, without them |x| &lt;= 1e15 (a finite
     * second moment for Adam).
     */
    private static Gen<float[]> values(boolean specials, int length) {
        List<Float> boundary = specials
                ? List.of(0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL / 3, -Float.MIN_NORMAL / 3,
                        1e15f, -1e15f, 88.7f, -103f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
                        Float.NEGATIVE_INFINITY, Float.NaN)
                : List.of(0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL / 3, -Float.MIN_NORMAL / 3,
                        1e15f, -1e15f, 88.7f, -103f);
        Gen<Float> value = floats().between(-120f, 120f).mix(Generate.pick(boundary), 20);
        return arrays().ofClass(value, Float.class).withLength(length).map(boxed -> {
            float[] x = new float[length];
            for (int i = 0; i < length; i++) {
                x[i] = boxed[i];
            }
            return x;
        });
    }
}
