package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * A contiguous range [from, to) of the rows of a matrix, or of the columns of a matrix or the
 * elements of a vector. The result is a copy; dL/dx is dL/dy placed in the range and zero elsewhere.
 */
final class Slice implements Op<Tensor> {
    private final boolean rows;
    private final int from;
    private final int to;

    private Slice(boolean rows, int from, int to) {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("slice [" + from + ", " + to + ") needs 0 <= from <= to");
        }
        this.rows = rows;
        this.from = from;
        this.to = to;
    }

    /** Rows from (inclusive) to (exclusive) of a matrix. */
    public static Slice rows(int from, int to) {
        return new Slice(true, from, to);
    }

    /** Columns from (inclusive) to (exclusive) of a matrix, or elements of a vector. */
    public static Slice cols(int from, int to) {
        return new Slice(false, from, to);
    }

    @Override
    public String name() {
        return "Slice(" + (rows ? "rows " : "cols ") + from + ".." + to + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (rows ? x.rank() != 2 : x.rank() == 0) {
            throw new IllegalArgumentException(name() + " needs " + (rows ? "a matrix" : "a vector or a matrix")
                    + ", got shape " + Arrays.toString(x.shape()));
        }
        int extent = rows ? x.rows() : x.cols();
        if (to > extent) {
            throw new IndexOutOfBoundsException(name() + " is outside the " + extent + (rows ? " rows" : " columns")
                    + " of shape " + Arrays.toString(x.shape()));
        }
        int c = x.cols();
        int n = to - from;
        if (rows) {
            Tensor y = Tensor.zeros(x.dtype(), n, c);
            Blocks.copy(x, from * c, y, 0, n * c);
            return Op.result(y, x);
        }
        Tensor y = Tensor.zeros(x.dtype(), x.rank() == 2 ? new int[] {x.rows(), n} : new int[] {n});
        Blocks.copy2d(x, from, c, y, 0, n, x.rows(), n);
        return Op.result(y, x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        Tensor dx = Tensor.zerosLike(x);
        int c = x.cols();
        int n = to - from;
        if (rows) {
            Blocks.copy(g, 0, dx, from * c, n * c);
        } else {
            Blocks.copy2d(g, 0, n, dx, from, c, x.rows(), n);
        }
        return new Tensor[] {dx};
    }
}
