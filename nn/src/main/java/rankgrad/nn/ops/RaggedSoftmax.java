package rankgrad.nn.ops;

import java.util.Arrays;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * Softmax over rows of different lengths packed into one vector: row r is
 * x[rows[r] .. rows[r+1]-1] and
 *
 * <pre>
 *   y_i = exp(x_i - m_r) / sum_{k in r} exp(x_k - m_r),   m_r = max_{k in r} x_k
 * </pre>
 *
 * so every row sums to 1 over its own entries only. This is the masked softmax of padded
 * attention without the padding: a position outside every row does not exist, so it can take no
 * weight. Backward per row: dx_i = y_i (g_i - sum_k g_k y_k). The rows must cover the vector
 * (rows[0] = 0, non-decreasing, last = length); an empty row is allowed. Stable for any finite input.
 */
public final class RaggedSoftmax implements Op<double[]> {
    private final int[] rows;

    /** Softmax over the rows starting at {@code rows[r]} (copied), {@code rows} ending with the vector's length. */
    public RaggedSoftmax(int[] rows) {
        this.rows = rows.clone();
        if (this.rows.length < 1 || this.rows[0] != 0) {
            throw new IllegalArgumentException("row starts must begin with 0, got " + Arrays.toString(rows));
        }
        for (int r = 0; r + 1 < this.rows.length; r++) {
            if (this.rows[r + 1] < this.rows[r]) {
                throw new IllegalArgumentException("row starts must not decrease, got " + this.rows[r] + " then "
                        + this.rows[r + 1]);
            }
        }
    }

    @Override
    public Result<double[]> forward(Tensor... in) {
        if (in[0].rank() != 1 || in[0].size() != rows[rows.length - 1]) {
            throw new IllegalArgumentException("ragged softmax needs a vector of " + rows[rows.length - 1]
                    + " values, got shape " + Arrays.toString(in[0].shape()));
        }
        double[] y = new double[in[0].size()];
        AttentionLoops.softmaxRows(in[0].toDoubleArray(), rows, y);
        return Op.result(AttentionLoops.tensor(y, in[0].dtype(), y.length), y);
    }

    @Override
    public Tensor[] backward(double[] y, Tensor g, boolean[] needs) {
        double[] dx = new double[y.length];
        AttentionLoops.softmaxRowsBackward(y, g.toDoubleArray(), rows, dx);
        return new Tensor[] {AttentionLoops.tensor(dx, g.dtype(), dx.length)};
    }
}
