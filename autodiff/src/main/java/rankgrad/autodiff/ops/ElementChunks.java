package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * Splits n independent elements into contiguous ranges run with {@link Parallel#forEach}. The
 * ranges depend only on n, and every element is computed on its own, so the result is the same
 * for any thread count.
 */
final class ElementChunks {
    /** Elements per task: 128 KiB of float32, large enough that task overhead does not show. */
    private static final int GRAIN = 1 << 15;

    /** The body of one range [from, to). */
    @FunctionalInterface
    interface Range {
        void run(int from, int to);
    }

    private ElementChunks() {
    }

    /** Runs {@code body} over ranges covering 0 .. n-1. */
    static void forEach(int n, Range body) {
        int tasks = Parallel.tasksFor(n, GRAIN);
        int per = (n + tasks - 1) / tasks;
        Parallel.forEach(tasks, t -> {
            int from = t * per;
            int to = Math.min(n, from + per);
            if (from < to) {
                body.run(from, to);
            }
        });
    }

    /** A new tensor a * b elementwise, for two tensors of equal shape and dtype. */
    static Tensor product(Tensor a, Tensor b) {
        Tensor out = Tensor.zerosLike(a);
        if (a.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] as = a.f32();
            float[] bs = b.f32();
            float[] os = out.f32();
            forEach(as.length, (from, to) -> k.mulF32(as, from, bs, from, os, from, to - from));
        } else {
            double[] as = a.f64();
            double[] bs = b.f64();
            double[] os = out.f64();
            for (int i = 0; i < as.length; i++) {
                os[i] = as[i] * bs[i];
            }
        }
        return out;
    }
}
