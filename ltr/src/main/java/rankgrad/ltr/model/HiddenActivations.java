package rankgrad.ltr.model;

import java.util.List;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.Query;

/**
 * The check {@link Scorer} runs on each layer's output: one pass that reads every value once. A
 * float is NaN or infinite exactly when its exponent bits are all ones, so the pass keeps the
 * largest exponent field seen, a branch-free integer maximum the JIT vectorizes; only when that
 * says a value is bad does a second pass find its row.
 */
final class HiddenActivations {
    private static final int F32_EXPONENT = 0x7f800000;
    private static final long F64_EXPONENT = 0x7ff0000000000000L;

    private HiddenActivations() {
    }

    /** The first row of {@code t} (rows x columns) holding a NaN or infinity, or -1 when all are finite. */
    static int firstNonFiniteRow(Tensor t) {
        if (t.dtype() == DType.F32) {
            float[] a = t.f32();
            int max = 0;
            for (float v : a) {
                max = Math.max(max, Float.floatToRawIntBits(v) & F32_EXPONENT);
            }
            if (max != F32_EXPONENT) {
                return -1;
            }
            for (int i = 0; i < a.length; i++) {
                if (!Float.isFinite(a[i])) {
                    return i / Math.max(1, a.length / t.rows());
                }
            }
        } else {
            double[] a = t.f64();
            long max = 0;
            for (double v : a) {
                max = Math.max(max, Double.doubleToRawLongBits(v) & F64_EXPONENT);
            }
            if (max != F64_EXPONENT) {
                return -1;
            }
            for (int i = 0; i < a.length; i++) {
                if (!Double.isFinite(a[i])) {
                    return i / Math.max(1, a.length / t.rows());
                }
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
