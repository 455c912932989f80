package rankgrad.ltr.model;

import java.util.List;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Parallel;
import rankgrad.ltr.data.Query;

/**
 * The check {@link Scorer} runs on the input of an activation other than ReLU (a ReLU's input is
 * checked inside its own pass, {@link rankgrad.nn.Activation.Relu#evaluateOrNull}): one pass that
 * reads every value once, split over the kernels' thread team like the layer that wrote them (a
 * serial pass would cost as much as a parallel layer). Math.max and Math.abs keep a NaN, so the
 * largest magnitude is finite exactly when every value is, and both vectorize; only when a task
 * says a value is bad does a second pass find its row.
 */
final class HiddenActivations {

    private HiddenActivations() {
    }

    /** Values per task of the parallel pass: enough to amortize a task, few enough to spread a layer. */
    private static final int GRAIN = 1 << 16;

    /** The first row of {@code t} (rows x columns) holding a NaN or infinity, or -1 when all are finite. */
    static int firstNonFiniteRow(Tensor t) {
        int n = t.size();
        int tasks = Parallel.tasksFor(n, GRAIN);
        boolean[] bad = new boolean[tasks];
        if (t.dtype() == DType.F32) {
            float[] a = t.f32();
            Parallel.forEach(tasks, k -> {
                float max = 0f;
                for (int i = (int) ((long) n * k / tasks), end = (int) ((long) n * (k + 1) / tasks); i < end; i++) {
                    max = Math.max(max, Math.abs(a[i]));
                }
                bad[k] = !(max <= Float.MAX_VALUE);
            });
        } else {
            double[] a = t.f64();
            Parallel.forEach(tasks, k -> {
                double max = 0;
                for (int i = (int) ((long) n * k / tasks), end = (int) ((long) n * (k + 1) / tasks); i < end; i++) {
                    max = Math.max(max, Math.abs(a[i]));
                }
                bad[k] = !(max <= Double.MAX_VALUE);
            });
        }
        for (boolean b : bad) {
            if (b) {
                return firstRow(t);
            }
        }
        return -1;
    }

    /** The first row of {@code t} holding a NaN or infinity (-1 when none), found by a plain scan. */
    static int firstRow(Tensor t) {
        int columns = Math.max(1, t.size() / t.rows());
        for (int i = 0; i < t.size(); i++) {
            if (!Double.isFinite(t.get(i))) {
                return i / columns;
            }
        }
        return -1;
    }

    /**
     * The exception naming {@code layer}, the value and the document of {@code row}: {@code offsets}
     * are the first rows of {@code queries} (and one past the last).
     */
    static NonFiniteScoreException nonFinite(Tensor t, int row, String layer, int[] offsets, List<Query> queries) {
        int q = 0;
        while (q + 1 < queries.size() && offsets[q + 1] <= row) {
            q++;
        }
        int columns = t.size() / t.rows();
        float value = Float.NaN;
        for (int c = 0; c < columns; c++) {
            double v = t.get(row * columns + c);
            if (!Double.isFinite(v)) {
                value = (float) v;
                break;
            }
        }
        return new NonFiniteScoreException(queries.get(q).qid(), row - offsets[q], value, layer);
    }
}
