package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;

/**
 * Sum of all elements (axis -1), of each column (axis 0: sums over rows) or of each row (axis 1:
 * sums over columns). With {@code keepDims} the reduced axis stays with size 1, so the result
 * broadcasts back against the input. The gradient is dL/dy broadcast back to the input's shape.
 */
final class Sum implements Op<Tensor> {
    private final int axis;
    private final boolean keepDims;

    private Sum(int axis, boolean keepDims) {
        this.axis = axis;
        this.keepDims = keepDims;
    }

    /** Sum over {@code axis} (-1 = all, 0 = rows, 1 = columns). */
    public static Sum over(int axis, boolean keepDims) {
        if (axis < -1 || axis > 1) {
            throw new IllegalArgumentException("axis must be -1 (all), 0 or 1, got " + axis);
        }
        return new Sum(axis, keepDims);
    }

    @Override
    public String name() {
        return "Sum(axis=" + axis + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        int r = x.rows();
        int c = x.cols();
        Tensor out = Tensor.zeros(x.dtype(), outShape(x));
        if (x.dtype() == DType.F32 && axis == -1) {
            out.f32()[0] = KernelProvider.kernels().sumF32(x.f32(), 0, x.size());
            return Op.result(out, x);
        }
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                int o = axis == -1 ? 0 : axis == 0 ? j : i;
                out.set(o, out.get(o) + x.get(i * c + j));
            }
        }
        return Op.result(out, x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        Broadcast.Mode mode = axis == -1 ? Broadcast.Mode.SCALAR : axis == 0 ? Broadcast.Mode.ROW : Broadcast.Mode.COL;
        Tensor dx = Tensor.zerosLike(x);
        int c = x.cols();
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < c; j++) {
                dx.set(i * c + j, g.get(mode.index(i, j, c)));
            }
        }
        return new Tensor[] {dx};
    }

    private int[] outShape(Tensor x) {
        if (axis == -1) {
            return keepDims ? onesOfRank(x.rank()) : new int[0];
        }
        if (x.rank() != 2) {
            throw new IllegalArgumentException("Sum over axis " + axis + " needs a matrix, got rank " + x.rank());
        }
        if (axis == 0) {
            return keepDims ? new int[] {1, x.dim(1)} : new int[] {x.dim(1)};
        }
        return keepDims ? new int[] {x.dim(0), 1} : new int[] {x.dim(0)};
    }

    private static int[] onesOfRank(int rank) {
        int[] s = new int[rank];
        java.util.Arrays.fill(s, 1);
        return s;
    }
}
