package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y = tanh(x) elementwise; dL/dx = dL/dy * (1 - y^2), from the saved output. float32 runs on
 * {@link Kernels#tanhF32}.
 */
final class Tanh implements Op<Tensor> {
    /** The shared instance (the op is stateless). */
    public static final Tanh INSTANCE = new Tanh();

    private Tanh() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.dtype() == DType.F64) {
            Tensor y = Unary.map(x, Math::tanh);
            return Op.result(y, y);
        }
        Tensor y = Unary.mapF32(x, KernelProvider.kernels()::tanhF32);
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        if (y.dtype() == DType.F64) {
            return new Tensor[] {Unary.zip(g, y, (gi, yi) -> gi * (1.0 - yi * yi))};
        }
        Tensor dx = Tensor.zerosLike(y);
        float[] ys = y.f32();
        float[] gs = g.f32();
        float[] ds = dx.f32();
        ElementChunks.forEach(ys.length, (from, to) -> {
            for (int i = from; i < to; i++) {
                ds[i] = gs[i] * (1f - ys[i] * ys[i]);
            }
        });
        return new Tensor[] {dx};
    }
}
