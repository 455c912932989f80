package rankgrad.ltr.train;

import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;

/** Finds the first NaN or infinity among named tensors, for the trainer's divergence checks. */
final class NonFinite {
    private NonFinite() {
    }

    /**
     * {@code "<what> <name>[<index>] is <value>"} for the first non-finite entry of {@code tensors}
     * in map and index order, or null when every entry is finite. Null tensors (a parameter
     * without a gradient at this step) are skipped.
     */
    static String find(String what, Map<String, Tensor> tensors) {
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            Tensor t = e.getValue();
            if (t == null) {
                continue;
            }
            int i = firstNonFinite(t);
            if (i >= 0) {
                return what + " " + e.getKey() + "[" + i + "] is " + t.get(i);
            }
        }
        return null;
    }

    /** The index of the first NaN or infinity of {@code t}, or -1. */
    private static int firstNonFinite(Tensor t) {
        if (t.dtype() == DType.F32) {
            float[] v = t.f32();
            return KernelProvider.kernels().firstNonFiniteF32(v, 0, v.length);
        }
        double[] v = t.f64();
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i])) {
                return i;
            }
        }
        return -1;
    }
}
