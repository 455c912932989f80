package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = ln(1 + x) elementwise, accurate for small |x| ({@link Math#log1p}); dL/dx = dL/dy / (1 + x).
 */
final class Log1p implements Op<Tensor> {
    public static final Log1p INSTANCE = new Log1p();

    private Log1p() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        return Op.result(Unary.map(in[0], Math::log1p), in[0]);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        return new Tensor[] {Unary.zip(g, x, (gi, xi) -> gi / (1.0 + xi))};
    }
}
