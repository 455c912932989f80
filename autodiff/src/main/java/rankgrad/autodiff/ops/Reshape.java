package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * The same elements in the same row-major order seen with another shape of equal size (rank 0..2).
 * The output shares the input's data, as {@link Tensor#reshape} does; nothing writes to either.
 * dL/dx is dL/dy reshaped back.
 */
final class Reshape implements Op<int[]> {
    private final int[] shape;

    private Reshape(int[] shape) {
        this.shape = shape;
    }

    /** The op giving its input the shape {@code shape} (copied). */
    public static Reshape to(int... shape) {
        return new Reshape(shape.clone());
    }

    @Override
    public String name() {
        return "Reshape" + Arrays.toString(shape);
    }

    @Override
    public Result<int[]> forward(Tensor... in) {
        Tensor x = in[0];
        long n = 1;
        for (int d : shape) {
            n *= d;
        }
        if (n != x.size()) {
            throw new IllegalArgumentException("cannot reshape " + Arrays.toString(x.shape()) + " (" + x.size()
                    + " elements) to " + Arrays.toString(shape) + " (" + n + " elements)");
        }
        return Op.result(x.reshape(shape), x.shape());
    }

    @Override
    public Tensor[] backward(int[] inShape, Tensor g, boolean[] needs) {
        return new Tensor[] {g.reshape(inShape)};
    }
}
