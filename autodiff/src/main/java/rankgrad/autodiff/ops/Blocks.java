package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/** Block copies between tensors of one dtype, for the ops that only move data. */
final class Blocks {

    private Blocks() {
    }

    /** Copies {@code n} elements from src[srcPos..] to dst[dstPos..] (flat row-major indices). */
    static void copy(Tensor src, int srcPos, Tensor dst, int dstPos, int n) {
        if (src.dtype() == DType.F32) {
            System.arraycopy(src.f32(), srcPos, dst.f32(), dstPos, n);
        } else {
            System.arraycopy(src.f64(), srcPos, dst.f64(), dstPos, n);
        }
    }

    /**
     * Copies a block of {@code rows} x {@code cols} elements: row i of the block starts at
     * {@code srcPos + i * srcStride} in src and {@code dstPos + i * dstStride} in dst.
     */
    static void copy2d(Tensor src, int srcPos, int srcStride, Tensor dst, int dstPos, int dstStride, int rows, int cols) {
        for (int i = 0; i < rows; i++) {
            copy(src, srcPos + i * srcStride, dst, dstPos + i * dstStride, cols);
        }
    }
}
