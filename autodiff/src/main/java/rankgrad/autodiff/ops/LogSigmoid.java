package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.simd.ScalarKernels;

/**
 * y = ln(sigmoid(x)) = -softplus(-x), computed as min(x, 0) - log1p(exp(-|x|)) so that it neither
 * overflows nor returns -infinity for very negative x (logSigmoid(-1000) = -1000).
 * dL/dx = dL/dy * (1 - sigmoid(x)) = dL/dy * sigmoid(-x), formed without cancellation.
 */
final class LogSigmoid implements Op<Tensor> {
    public static final LogSigmoid INSTANCE = new LogSigmoid();

    private LogSigmoid() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        return Op.result(Unary.map(in[0], v -> Math.min(v, 0.0) - Math.log1p(Math.exp(-Math.abs(v)))), in[0]);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            Tensor dx = Tensor.zerosLike(x);
            float[] d = dx.f32();
            k.mulScalarF32(x.f32(), 0, -1f, d, 0, d.length);
            k.sigmoidF32(d, 0, d, 0, d.length);
            k.mulF32(d, 0, g.f32(), 0, d, 0, d.length);
            return new Tensor[] {dx};
        }
        return new Tensor[] {Unary.zip(g, x, (gi, xi) -> gi * ScalarKernels.sigmoid(-xi))};
    }
}
