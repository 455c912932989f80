package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;

/**
 * y = exp(x) elementwise; dL/dx = dL/dy * y, so the output is the only residual. Float32 runs on
 * the {@code expF32} and {@code mulF32} kernels.
 */
final class Exp implements Op<Tensor> {
    public static final Exp INSTANCE = new Exp();

    private Exp() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        Tensor y;
        if (x.dtype() == DType.F32) {
            y = Tensor.zerosLike(x);
            KernelProvider.kernels().expF32(x.f32(), 0, y.f32(), 0, x.size());
        } else {
            y = Unary.map(x, Math::exp);
        }
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        Tensor dx;
        if (y.dtype() == DType.F32) {
            dx = Tensor.zerosLike(y);
            KernelProvider.kernels().mulF32(g.f32(), 0, y.f32(), 0, dx.f32(), 0, y.size());
        } else {
            dx = Unary.zip(g, y, (gi, yi) -> gi * yi);
        }
        return new Tensor[] {dx};
    }
}
