package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.simd.ScalarKernels;

/**
 * y = softplus(x) = ln(1 + e^x), computed as max(x, 0) + log1p(exp(-|x|)): exp never overflows
 * and log1p keeps the small tail accurate, so softplus(1000) = 1000 and softplus(-1000) = e^-1000
 * rounds to 0 rather than overflowing or cancelling. dL/dx = dL/dy * sigmoid(x) (the
 * {@code sigmoidF32} kernel in float32).
 */
final class Softplus implements Op<Tensor> {
    public static final Softplus INSTANCE = new Softplus();

    private Softplus() {
    }

    /** softplus of one value, the stable formula above. */
    public static double softplus(double x) {
        return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        return Op.result(Unary.map(in[0], Softplus::softplus), in[0]);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            Tensor dx = Tensor.zerosLike(x);
            k.sigmoidF32(x.f32(), 0, dx.f32(), 0, x.size());
            k.mulF32(dx.f32(), 0, g.f32(), 0, dx.f32(), 0, x.size());
            return new Tensor[] {dx};
        }
        return new Tensor[] {Unary.zip(g, x, (gi, xi) -> gi * ScalarKernels.sigmoid(xi))};
    }
}
