package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * Joins vectors and matrices (a vector is a 1 x n row) along the rows or along the columns.
 * Rows: the parts must have equal column counts and the result is a matrix stacking them.
 * Columns: the parts must have equal row counts; the result is a vector if every part is a
 * vector, else a matrix. dL/d(part) is the part's block of dL/dy.
 */
final class Concat implements Op<int[][]> {
    /** Stacks the parts' rows. */
    public static final Concat ROWS = new Concat(true);
    /** Joins the parts' columns. */
    public static final Concat COLS = new Concat(false);

    private final boolean rows;

    private Concat(boolean rows) {
        this.rows = rows;
    }

    @Override
    public String name() {
        return rows ? "ConcatRows" : "ConcatCols";
    }

    @Override
    public Result<int[][]> forward(Tensor... in) {
        if (in.length == 0) {
            throw new IllegalArgumentException(name() + " needs at least one part");
        }
        int[][] shapes = new int[in.length][];
        int along = 0;
        int rank = 1;
        for (int p = 0; p < in.length; p++) {
            Tensor t = in[p];
            shapes[p] = t.shape();
            if (t.rank() == 0 || t.dtype() != in[0].dtype()) {
                throw new IllegalArgumentException(name() + ": part " + p + " is " + t.dtype() + Arrays.toString(t.shape())
                        + ", parts must be vectors or matrices of one dtype (part 0 is " + in[0].dtype() + ")");
            }
            int across = rows ? t.cols() : t.rows();
            int across0 = rows ? in[0].cols() : in[0].rows();
            if (across != across0) {
                throw new IllegalArgumentException(name() + ": part " + p + " has shape " + Arrays.toString(t.shape())
                        + " but part 0 has " + Arrays.toString(in[0].shape()) + "; " + (rows ? "column" : "row")
                        + " counts must be equal");
            }
            along += rows ? t.rows() : t.cols();
            rank = Math.max(rank, t.rank());
        }
        Tensor y;
        if (rows) {
            y = Tensor.zeros(in[0].dtype(), along, in[0].cols());
            int pos = 0;
            for (Tensor t : in) {
                Blocks.copy(t, 0, y, pos, t.size());
                pos += t.size();
            }
        } else {
            int r = in[0].rows();
            y = Tensor.zeros(in[0].dtype(), rank == 2 ? new int[] {r, along} : new int[] {along});
            int col = 0;
            for (Tensor t : in) {
                Blocks.copy2d(t, 0, t.cols(), y, col, along, r, t.cols());
                col += t.cols();
            }
        }
        return Op.result(y, shapes);
    }

    @Override
    public Tensor[] backward(int[][] shapes, Tensor g, boolean[] needs) {
        Tensor[] grads = new Tensor[shapes.length];
        int pos = 0;
        for (int p = 0; p < shapes.length; p++) {
            int pr = shapes[p].length == 2 ? shapes[p][0] : 1;
            int pc = shapes[p][shapes[p].length - 1];
            if (needs[p]) {
                grads[p] = Tensor.zeros(g.dtype(), shapes[p]);
                if (rows) {
                    Blocks.copy(g, pos, grads[p], 0, pr * pc);
                } else {
                    Blocks.copy2d(g, pos, g.cols(), grads[p], 0, pc, pr, pc);
                }
            }
            pos += rows ? pr * pc : pc;
        }
        return grads;
    }
}
