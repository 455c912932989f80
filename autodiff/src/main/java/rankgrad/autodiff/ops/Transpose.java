package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = x^T for a matrix: y[j][i] = x[i][j], a copy. dL/dx = (dL/dy)^T. For a vector, reshape it to
 * 1 x n or n x 1 instead.
 */
final class Transpose implements Op<Void> {
    public static final Transpose INSTANCE = new Transpose();

    private Transpose() {
    }

    @Override
    public Result<Void> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.rank() != 2) {
            throw new IllegalArgumentException("Transpose needs a matrix, got shape " + Arrays.toString(x.shape())
                    + "; reshape a vector to 1 x n or n x 1 first");
        }
        return Op.result(transpose(x), null);
    }

    @Override
    public Tensor[] backward(Void unused, Tensor g, boolean[] needs) {
        return new Tensor[] {transpose(g)};
    }

    /** The transposed copy of a matrix. */
    static Tensor transpose(Tensor x) {
        int r = x.dim(0);
        int c = x.dim(1);
        Tensor y = Tensor.zeros(x.dtype(), c, r);
        if (x.dtype() == DType.F32) {
            float[] xs = x.f32();
            float[] ys = y.f32();
            for (int i = 0; i < r; i++) {
                for (int j = 0; j < c; j++) {
                    ys[j * r + i] = xs[i * c + j];
                }
            }
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            for (int i = 0; i < r; i++) {
                for (int j = 0; j < c; j++) {
                    ys[j * r + i] = xs[i * c + j];
                }
            }
        }
        return y;
    }
}
