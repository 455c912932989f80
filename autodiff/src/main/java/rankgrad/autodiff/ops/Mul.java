package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = a * b elementwise with scalar, row and column broadcasting ({@link Broadcast});
 * dL/da = reduce(dL/dy * b), dL/db = reduce(dL/dy * a), reduced over the broadcast dimensions.
 */
final class Mul implements Op<Elementwise.Saved> {
    public static final Mul INSTANCE = new Mul();

    private Mul() {
    }

    @Override
    public Result<Elementwise.Saved> forward(Tensor... in) {
        Broadcast bc = Broadcast.of(in[0], in[1]);
        return Op.result(Elementwise.binary(in[0], in[1], bc, true), new Elementwise.Saved(bc, in[0], in[1]));
    }

    @Override
    public Tensor[] backward(Elementwise.Saved s, Tensor g, boolean[] needs) {
        Broadcast bc = s.bc();
        Tensor ga = null;
        Tensor gb = null;
        if (needs[0]) {
            // g has the output's shape, so g * b broadcasts b exactly as forward did.
            Tensor gxb = Elementwise.binary(g, s.b(), Broadcast.of(g, s.b()), true);
            ga = bc.reduce(gxb, bc.a(), s.a());
        }
        if (needs[1]) {
            Tensor gxa = Elementwise.binary(g, s.a(), Broadcast.of(g, s.a()), true);
            gb = bc.reduce(gxa, bc.b(), s.b());
        }
        return new Tensor[] {ga, gb};
    }
}
