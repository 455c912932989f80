package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y = max(x, 0) elementwise; dL/dx = dL/dy where x &gt; 0, else 0 (the subgradient 0 at the kink,
 * as PyTorch). float32 runs on {@link Kernels#reluF32} / {@link Kernels#reluBackwardF32}.
 * NaN inputs give 0, as the scalar kernel does.
 */
final class Relu implements Op<Tensor> {
    /** The shared instance (the op is stateless). */
    public static final Relu INSTANCE = new Relu();

    private Relu() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.dtype() == DType.F32) {
            return Op.result(Unary.mapF32(x, KernelProvider.kernels()::reluF32), x);
        }
        Tensor y = Tensor.zerosLike(x);
        double[] xs = x.f64();
        double[] ys = y.f64();
        for (int i = 0; i < xs.length; i++) {
            ys[i] = xs[i] > 0 ? xs[i] : 0.0;
        }
        return Op.result(y, x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        Tensor dx = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] gs = g.f32();
            float[] ds = dx.f32();
            ElementChunks.forEach(xs.length, (from, to) -> k.reluBackwardF32(xs, from, gs, from, ds, from, to - from));
        } else {
            double[] xs = x.f64();
            double[] gs = g.f64();
            double[] ds = dx.f64();
            for (int i = 0; i < xs.length; i++) {
                ds[i] = xs[i] > 0 ? gs[i] : 0.0;
            }
        }
        return new Tensor[] {dx};
    }
}
