package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.simd.ScalarKernels;

/**
 * y = sigma(x) = 1 / (1 + e^{-x}) elementwise (docs/design.md §3 notation); dL/dx = dL/dy * y (1 - y),
 * from the saved output.
 *
 * <p>Numerically stable: for x &lt; 0 it is evaluated as e^x / (1 + e^x), so no exp overflows and
 * the result is in [0, 1] for every finite x ({@link ScalarKernels#sigmoid}; float32 runs on
 * {@link Kernels#sigmoidF32}, which has the same contract).
 */
final class Sigmoid implements Op<Tensor> {
    /** The shared instance (the op is stateless). */
    public static final Sigmoid INSTANCE = new Sigmoid();

    private Sigmoid() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.dtype() == DType.F64) {
            Tensor y = Unary.map(x, ScalarKernels::sigmoid);
            return Op.result(y, y);
        }
        Tensor y = Unary.mapF32(x, KernelProvider.kernels()::sigmoidF32);
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        if (y.dtype() == DType.F64) {
            return new Tensor[] {Unary.zip(g, y, (gi, yi) -> gi * yi * (1.0 - yi))};
        }
        Tensor dx = Tensor.zerosLike(y);
        float[] ys = y.f32();
        float[] gs = g.f32();
        float[] ds = dx.f32();
        ElementChunks.forEach(ys.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                ds[i] = gs[i] * ys[i] * (1f - ys[i]);
            }
        });
        return new Tensor[] {dx};
    }
}
