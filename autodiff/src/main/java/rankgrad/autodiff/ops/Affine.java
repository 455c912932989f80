package rankgrad.autodiff.ops;

import rankgrad.simd.RowChunks;
import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.simd.Workspace;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * The fully connected layer in one node: Y = X W + b for X (n x in), W (in x out) and a bias row b
 * (length out) added to every row. With G = dL/dY: dX = G W^T, dW = X^T G, db = the column sums
 * of G.
 *
 * <p>Implementation notes: the same as {@code add(matmul(X, W), b)}, but the bias is added in place
 * to the GEMM output this op just allocated, and db is one column reduction; that saves an n x out
 * temporary and a pass per layer. Column sums run over a fixed partition of the rows
 * ({@code RowChunks}), so results do not depend on the thread count.
 */
final class Affine implements Op<Affine.Saved> {
    /** The shared instance (the op is stateless). */
    public static final Affine INSTANCE = new Affine(null);

    /** What backward needs: the input and the weights. */
    public record Saved(Tensor x, Tensor w) {
    }

    private final Workspace workspace;

    private Affine(Workspace workspace) {
        this.workspace = workspace;
    }

    /**
     * The op with dX taken from {@code workspace}, for a caller that guarantees X is the output of
     * a node of the same network that gives dX back in its backward (see {@link Workspace}).
     */
    public static Affine withInputGradientIn(Workspace workspace) {
        return new Affine(Objects.requireNonNull(workspace, "workspace"));
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor x = in[0];
        Tensor w = in[1];
        Tensor b = in[2];
        if (x.rank() != 2 || w.rank() != 2) {
            throw new IllegalArgumentException("Affine needs a matrix input and a matrix of weights, got ranks "
                    + x.rank() + " and " + w.rank());
        }
        int n = x.dim(0);
        int k = x.dim(1);
        int out = w.dim(1);
        if (w.dim(0) != k) {
            throw new IllegalArgumentException("Affine: input has " + k + " columns but the weights have "
                    + w.dim(0) + " rows (weights are stored in x out)");
        }
        if (b.rank() != 1 || b.size() != out) {
            throw new IllegalArgumentException("Affine: bias must be a vector of length " + out + ", got shape "
                    + Arrays.toString(b.shape()));
        }
        if (x.dtype() != w.dtype() || x.dtype() != b.dtype()) {
            throw new IllegalArgumentException("Affine: dtypes differ: input " + x.dtype() + ", weights "
                    + w.dtype() + ", bias " + b.dtype());
        }
        Tensor y = MatMul.gemm(false, false, n, out, k, x, w);
        if (y.dtype() == DType.F32) {
            Kernels kern = KernelProvider.kernels();
            float[] ys = y.f32();
            float[] bs = b.f32();
            RowChunks.forEach(n, out, (from, to) -> {
                for (int i = from; i < to; i++) {
                    kern.addF32(ys, i * out, bs, 0, ys, i * out, out);
                }
            });
        } else {
            double[] ys = y.f64();
            double[] bs = b.f64();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < out; j++) {
                    ys[i * out + j] += bs[j];
                }
            }
        }
        return Op.result(y, new Saved(x, w));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        Tensor x = s.x();
        Tensor w = s.w();
        int n = x.dim(0);
        int k = x.dim(1);
        int out = w.dim(1);
        Tensor dx = null;
        if (needs[0] && workspace != null && g.dtype() == DType.F32) {
            dx = Tensor.of(workspace.take(n * k), n, k);
            KernelProvider.kernels().gemmF32(false, true, n, k, out, g.f32(), w.f32(), dx.f32());
        } else if (needs[0]) {
            dx = MatMul.gemm(false, true, n, k, out, g, w);
        }
        Tensor dw = needs[1] ? MatMul.gemm(true, false, k, out, n, x, g) : null;
        Tensor db = null;
        if (needs[2]) {
            db = Tensor.zeros(g.dtype(), out);
            double[] sums = g.dtype() == DType.F32 ? RowChunks.columnSums(g.f32(), n, out)
                    : RowChunks.columnSums(g.f64(), n, out);
            for (int j = 0; j < out; j++) {
                db.set(j, sums[j]);
            }
        }
        return new Tensor[] {dx, dw, db};
    }
}
