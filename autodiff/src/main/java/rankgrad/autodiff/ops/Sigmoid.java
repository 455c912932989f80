package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.kernel.KernelProvider;
import rankgrad.autodiff.kernel.Kernels;
import rankgrad.autodiff.kernel.ScalarKernels;

/**
 * y = sigma(x) = 1 / (1 + e^{-x}) elementwise (DESIGN.md §3 notation); dL/dx = dL/dy * y (1 - y),
 * from the saved output.
 *
 * <p>Numerically stable: for x &lt; 0 it is evaluated as e^x / (1 + e^x), so no exp overflows and
 * the result is in [0, 1] for every finite x ({@link ScalarKernels#sigmoid}; float32 runs on
 * {@link Kernels#sigmoidF32}, which has the same contract).
 */
public final class Sigmoid implements Op<Tensor> {
    /** The shared instance (the op is stateless). */
    public static final Sigmoid INSTANCE = new Sigmoid();

    private Sigmoid() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        Tensor y = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] ys = y.f32();
            ElementChunks.forEach(xs.length, (from, to) -> k.sigmoidF32(xs, from, ys, from, to - from));
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            for (int i = 0; i < xs.length; i++) {
                ys[i] = ScalarKernels.sigmoid(xs[i]);
            }
        }
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        Tensor dx = Tensor.zerosLike(y);
        if (y.dtype() == DType.F32) {
            float[] ys = y.f32();
            float[] gs = g.f32();
            float[] ds = dx.f32();
            ElementChunks.forEach(ys.length, (from, to) -> {
                for (int i = from; i < to; i++) {
                    ds[i] = gs[i] * ys[i] * (1f - ys[i]);
                }
            });
        } else {
            double[] ys = y.f64();
            double[] gs = g.f64();
            double[] ds = dx.f64();
            for (int i = 0; i < ys.length; i++) {
                ds[i] = gs[i] * ys[i] * (1.0 - ys[i]);
            }
        }
        return new Tensor[] {dx};
    }
}
