package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = sqrt(x) elementwise (correctly rounded); dL/dx = dL/dy / (2 y), infinite at x = 0 as the
 * derivative is.
 */
final class Sqrt implements Op<Tensor> {
    public static final Sqrt INSTANCE = new Sqrt();

    private Sqrt() {
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor y = Unary.map(in[0], Math::sqrt);
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        return new Tensor[] {Unary.zip(g, y, (gi, yi) -> 0.5 * gi / yi)};
    }
}
