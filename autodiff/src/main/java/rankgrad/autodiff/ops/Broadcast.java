package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.Tensor;

/**
 * How two operands of an elementwise op line up. Each operand, seen as a matrix (rows x cols), is
 * either the full output, one row repeated over the rows, one column repeated over the columns, or
 * one value. Rank-1 tensors are rows, as in NumPy.
 *
 * @param rows output rows
 * @param cols output columns
 * @param shape output shape (the rank of the higher-rank operand)
 * @param a how operand a is laid over the output
 * @param b how operand b is laid over the output
 */
record Broadcast(int rows, int cols, int[] shape, Mode a, Mode b) {

    /** How one operand covers the output. */
    public enum Mode {
        FULL, ROW, COL, SCALAR;

        /** Flat index of output element (i, j) in an operand with this mode. */
        public int index(int i, int j, int cols) {
            return switch (this) {
                case FULL -> i * cols + j;
                case ROW -> j;
                case COL -> i;
                case SCALAR -> 0;
            };
        }

        /** Whether consecutive output columns read consecutive operand elements. */
        public boolean unitStride() {
            return this == FULL || this == ROW;
        }

        /** Offset of output row i's first element in the operand. */
        public int rowOffset(int i, int cols) {
            return switch (this) {
                case FULL -> i * cols;
                case ROW, SCALAR -> 0;
                case COL -> i;
            };
        }
    }

    /** Lines up {@code a} and {@code b}, or throws naming both shapes. */
    public static Broadcast of(Tensor a, Tensor b) {
        int r = Math.max(a.rows(), b.rows());
        int c = Math.max(a.cols(), b.cols());
        if ((a.rows() != r && a.rows() != 1) || (b.rows() != r && b.rows() != 1)
                || (a.cols() != c && a.cols() != 1) || (b.cols() != c && b.cols() != 1)) {
            throw new IllegalArgumentException("shapes " + Arrays.toString(a.shape()) + " and "
                    + Arrays.toString(b.shape()) + " do not broadcast");
        }
        int rank = Math.max(a.rank(), b.rank());
        int[] shape = rank == 2 ? new int[] {r, c} : rank == 1 ? new int[] {c} : new int[0];
        return new Broadcast(r, c, shape, mode(a, r, c), mode(b, r, c));
    }

    private static Mode mode(Tensor t, int r, int c) {
        boolean fullRows = t.rows() == r;
        boolean fullCols = t.cols() == c;
        if (fullRows && fullCols) {
            return Mode.FULL;
        }
        if (fullCols) {
            return Mode.ROW;
        }
        if (fullRows) {
            return Mode.COL;
        }
        return Mode.SCALAR;
    }

    /**
     * Sums an output-shaped gradient over the broadcast dimensions of an operand with mode
     * {@code mode}, giving a tensor shaped like {@code operand}.
     */
    public Tensor reduce(Tensor g, Mode mode, Tensor operand) {
        if (mode == Mode.FULL) {
            return operand.sameShape(g) ? g : g.reshape(operand.shape());
        }
        Tensor out = Tensor.zerosLike(operand);
        if (g.dtype() == rankgrad.autodiff.DType.F32) {
            float[] gs = g.f32();
            float[] o = out.f32();
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    o[mode.index(i, j, cols)] += gs[i * cols + j];
                }
            }
        } else {
            double[] gs = g.f64();
            double[] o = out.f64();
            for (int i = 0; i < rows; i++) {
                for (int j = 0; j < cols; j++) {
                    o[mode.index(i, j, cols)] += gs[i * cols + j];
                }
            }
        }
        return out;
    }
}
