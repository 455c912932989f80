package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = a + b with scalar, row and column broadcasting ({@link Broadcast}); dL/da and dL/db are
 * dL/dy summed over the dimensions each operand was broadcast along.
 */
final class Add implements Op<Elementwise.Saved> {
    public static final Add INSTANCE = new Add();

    private Add() {
    }

    @Override
    public Result<Elementwise.Saved> forward(Tensor... in) {
        Broadcast bc = Broadcast.of(in[0], in[1]);
        return Op.result(Elementwise.binary(in[0], in[1], bc, false), new Elementwise.Saved(bc, in[0], in[1]));
    }

    @Override
    public Tensor[] backward(Elementwise.Saved s, Tensor g, boolean[] needs) {
        return new Tensor[] {
            needs[0] ? s.bc().reduce(g, s.bc().a(), s.a()) : null,
            needs[1] ? s.bc().reduce(g, s.bc().b(), s.b()) : null
        };
    }
}
