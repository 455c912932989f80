package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;

class InputNoiseTest {
    private static final Dataset DATA = CubicData.create(6, 2).sample("d", 20, 15, 4);

    private static float[] noisy(int[] batch, long seed, int epoch, double sigma) {
        Tensor x = DATA.featureMatrix(batch);
        InputNoise.add(x, DATA, batch, seed, epoch, sigma);
        return x.f32();
    }

    /** The rows of query {@code q} within the matrix of {@code batch}. */
    private static float[] rowsOf(float[] matrix, int[] batch, int q) {
        int at = 0;
        for (int b : batch) {
            int n = DATA.queries().get(b).x().length;
            if (b == q) {
                return Arrays.copyOfRange(matrix, at, at + n);
            }
            at += n;
        }
        throw new AssertionError("query " + q + " not in the batch");
    }

    @Test
    void aQuerysNoiseDependsOnSeedEpochAndQueryNotOnItsBatch() {
        float[] a = noisy(new int[] {3, 7, 11}, 5, 2, 0.1);
        float[] b = noisy(new int[] {11, 0, 1, 2, 7}, 5, 2, 0.1);
        assertArrayEquals(rowsOf(a, new int[] {3, 7, 11}, 7), rowsOf(b, new int[] {11, 0, 1, 2, 7}, 7), 0f);
        assertArrayEquals(rowsOf(a, new int[] {3, 7, 11}, 11), rowsOf(b, new int[] {11, 0, 1, 2, 7}, 11), 0f);
        assertFalse(Arrays.equals(a, noisy(new int[] {3, 7, 11}, 5, 3, 0.1)), "another epoch, other noise");
        assertFalse(Arrays.equals(a, noisy(new int[] {3, 7, 11}, 6, 2, 0.1)), "another seed, other noise");
    }

    @Test
    void zeroSigmaChangesNothingAndTheNoiseHasSigma() {
        int[] all = DATA.allQueries();
        float[] clean = DATA.featureMatrix(all).f32();
        assertArrayEquals(clean, noisy(all, 1, 1, 0.0), 0f);
        float[] x = noisy(all, 1, 1, 0.5);
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < x.length; i++) {
            double e = x[i] - clean[i];
            sum += e;
            squares += e * e;
        }
        int n = x.length;
        // 1800 draws of N(0, 0.25): the mean's standard error is 0.5 / sqrt(1800) ~ 0.012 (5 of them
        // allowed), the sample standard deviation's about 0.5 / sqrt(3600) ~ 0.008 (0.05 allowed).
        assertEquals(0.0, sum / n, 0.06);
        assertEquals(0.5, Math.sqrt(squares / n), 0.05);
    }
}
