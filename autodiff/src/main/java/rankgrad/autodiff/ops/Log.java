package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = ln(x) elementwise; dL/dx = dL/dy / x. Non-positive x gives NaN or -infinity, as
 * {@link Math#log} does.
 */
final class Log implements Op<Tensor> {
    public static final Log INSTANCE = new Log();

    private Log() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        return Op.result(Unary.map(in[0], Math::log), in[0]);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        return new Tensor[] {Unary.zip(g, x, (gi, xi) -> gi / xi)};
    }
}
