package rankgrad.ltr.rank;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sinkhorn scaling of a relaxed permutation matrix (Pobrotyn and Bialobrzeski 2021, Sec. 3.2,
 * after Sinkhorn 1964), and the gradient of a bilinear form of the result in O(T m) memory:
 *
 * <pre>
 *   repeat T times:  P &lt;- P diag(1 / max(1^T P, eps));  P &lt;- diag(1 / max(P 1, eps)) P
 *   value = u^T P w
 * </pre>
 *
 * columns first, then rows, eps = 1e-10, stopping after the first iteration at which every row
 * and every column sums to 1 within {@code tolerance} or after {@code maxIterations} iterations,
 * as allRank's {@code sinkhorn_scaling} does (allRank decides for a whole padded batch at once;
 * this class decides per query, which is the same for a batch of one query). With 0 iterations
 * the value is u^T P w of the operator's P itself. The gradient of the value is the gradient for
 * the number of iterations run (the stopping rule is piecewise constant in the scores), as
 * PyTorch's autograd gives it.
 *
 * <p>Memory: the scaled matrix after t iterations is diag(R_t) K diag(C_t), K the operator's P,
 * so the forward keeps the scaling vectors R_t, C_t and the sums K C_t, K^T R_{t-1} of every
 * iteration: 4 (T + 1) m doubles, never an m x m matrix. The backward runs the iterations in
 * reverse; the adjoint of K is a sum of 2T + 1 rank-one terms, each pushed through the softmax
 * of K's row as soon as its row factor is known, so each reverse iteration is one pass over the
 * rows. Rows are recomputed in every pass: 2T + 2 passes of m^2 exponentials in all (one pass
 * without scaling), against the m x m matrices PyTorch keeps for each of the 2T steps.
 *
 * <pre>{@code
 * double value = SinkhornScaling.of(50, 1e-6).bilinear(NeuralSort.of(1).rows(s, 0, m), u, w, 1.0, grad, 0);
 * }</pre>
 *
 * <p>Thread-safety: immutable.
 */
public final class SinkhornScaling {
    /** allRank's {@code DEFAULT_EPS}: the smallest row or column sum divided by. */
    public static final double EPS = 1e-10;
    private static final SinkhornScaling NONE = new SinkhornScaling(0, 0);

    private final int maxIterations;
    private final double tolerance;

    private SinkhornScaling(int maxIterations, double tolerance) {
        this.maxIterations = maxIterations;
        this.tolerance = tolerance;
    }

    /**
     * At most {@code maxIterations} (&gt;= 0) iterations, stopping when every row and column sum
     * is within {@code tolerance} (&gt;= 0; 0 runs them all) of 1.
     */
    public static SinkhornScaling of(int maxIterations, double tolerance) {
        if (maxIterations < 0) {
            throw new IllegalArgumentException("Sinkhorn iterations must be >= 0, got " + maxIterations);
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("Sinkhorn tolerance must be finite and >= 0, got " + tolerance);
        }
        return maxIterations == 0 ? NONE : new SinkhornScaling(maxIterations, tolerance);
    }

    /** No scaling: the operator's P itself. */
    public static SinkhornScaling none() {
        return NONE;
    }

    public int maxIterations() {
        return maxIterations;
    }

    public double tolerance() {
        return tolerance;
    }

    /**
     * Returns u^T S(P) w, S the scaling and P the rows' matrix, and adds {@code scale} times its
     * gradient with respect to the scores into {@code grad[gradFrom .. gradFrom + m)}.
     *
     * @param u one weight per position (length m)
     * @param w one weight per document (length m)
     */
    public double bilinear(RelaxedSort.Rows rows, double[] u, double[] w, double scale, double[] grad, int gradFrom) {
        Pass pass = new Pass(rows, u, w);
        pass.forward();
        double value = pass.reverse();
        rows.finish(pass.scoreGrad);
        for (int j = 0; j < pass.m; j++) {
            grad[gradFrom + j] += scale * pass.scoreGrad[j];
        }
        return value;
    }

    private static double clamp(double sum) {
        return Math.max(sum, EPS);
    }

    private static double dot(double[] a, double[] b, int m) {
        double sum = 0;
        for (int j = 0; j < m; j++) {
            sum += a[j] * b[j];
        }
        return sum;
    }

    /** The state of one evaluation: the scaling vectors of the forward and the reverse sweep. */
    private final class Pass {
        final RelaxedSort.Rows rows;
        final int m;
        final double[] u;
        final double[] w;
        final double[] k;
        final double[] logitGrad;
        final double[] scoreGrad;
        /** R_t, C_t (t = 0 .. T), p_t = K C_t and q_t = K^T R_{t-1} (t = 1 .. T; index 0 unused). */
        final List<double[]> rowScale = new ArrayList<>();
        final List<double[]> colScale = new ArrayList<>();
        final List<double[]> rowDot = new ArrayList<>();
        final List<double[]> colDot = new ArrayList<>();
        int iterations;

        Pass(RelaxedSort.Rows rows, double[] u, double[] w) {
            this.rows = rows;
            this.m = rows.size();
            this.u = u;
            this.w = w;
            this.k = new double[m];
            this.logitGrad = new double[m];
            this.scoreGrad = new double[m];
        }

        /** Runs the scaling, keeping the vectors the reverse sweep needs. */
        void forward() {
            double[] ones = new double[m];
            Arrays.fill(ones, 1.0);
            rowScale.add(ones);
            colScale.add(ones);
            rowDot.add(null);
            colDot.add(null);
            if (maxIterations == 0) {
                return;
            }
            double[] q = new double[m];
            for (int i = 0; i < m; i++) {
                rows.row(i, k);
                for (int j = 0; j < m; j++) {
                    q[j] += k[j];
                }
            }
            for (int t = 1; ; t++) {
                double[] prevR = rowScale.get(t - 1);
                double[] prevC = colScale.get(t - 1);
                double[] c = new double[m];
                for (int j = 0; j < m; j++) {
                    c[j] = prevC[j] / clamp(prevC[j] * q[j]);
                }
                colDot.add(q);
                colScale.add(c);
                double[] p = new double[m];
                double[] r = new double[m];
                double[] nextQ = new double[m];
                double rowError = 0;
                for (int i = 0; i < m; i++) {
                    rows.row(i, k);
                    p[i] = dot(k, c, m);
                    double sum = prevR[i] * p[i];
                    r[i] = prevR[i] / clamp(sum);
                    rowError = Math.max(rowError, Math.abs(sum / clamp(sum) - 1));
                    for (int j = 0; j < m; j++) {
                        nextQ[j] += r[i] * k[j];
                    }
                }
                rowDot.add(p);
                rowScale.add(r);
                double colError = 0;
                for (int j = 0; j < m; j++) {
                    colError = Math.max(colError, Math.abs(c[j] * nextQ[j] - 1));
                }
                if (t == maxIterations || (rowError < tolerance && colError < tolerance)) {
                    iterations = t;
                    return;
                }
                q = nextQ;
            }
        }

        /**
         * The value and the reverse sweep. Notation of the class comment: R_t = R_{t-1} / max(r_t, eps),
         * r_t = R_{t-1} * p_t; C_t = C_{t-1} / max(c_t, eps), c_t = C_{t-1} * q_t; the value u^T
         * diag(R_T) K diag(C_T) w.
         */
        double reverse() {
            int T = iterations;
            double[] rT = rowScale.get(T);
            double[] cT = colScale.get(T);
            double[] cw = new double[m];
            for (int j = 0; j < m; j++) {
                cw[j] = cT[j] * w[j];
            }
            double[] rowAdj = new double[m];
            double[] colAdj = new double[m];
            double value = 0;
            // Pass 1: the value, the adjoints of R_T and C_T, and the row step of iteration T.
            for (int i = 0; i < m; i++) {
                rows.row(i, k);
                double kw = dot(k, cw, m);
                value += u[i] * rT[i] * kw;
                double front = u[i] * rT[i];
                for (int j = 0; j < m; j++) {
                    colAdj[j] += front * k[j] * w[j];
                    logitGrad[j] = k[j] * front * (cw[j] - kw);
                }
                if (T > 0) {
                    rowAdj[i] = rowStep(T, i, u[i] * kw, colAdj);
                }
                rows.addLogitGradient(i, logitGrad, scoreGrad);
            }
            // Passes 2 .. T + 1: the column step of iteration t, then the row step of iteration t - 1.
            double[] pushed = new double[m];
            double[] nextColAdj = new double[m];
            double[] nextRowAdj = new double[m];
            for (int t = T; t >= 1; t--) {
                double[] prevC = colScale.get(t - 1);
                double[] c = colScale.get(t);
                double[] q = colDot.get(t);
                for (int j = 0; j < m; j++) {
                    double sum = prevC[j] * q[j];
                    double sumAdj = sum >= EPS ? -colAdj[j] * c[j] / sum : 0;
                    pushed[j] = sumAdj * prevC[j];
                    nextColAdj[j] = colAdj[j] / clamp(sum) + sumAdj * q[j];
                }
                double[] prevR = rowScale.get(t - 1);
                for (int i = 0; i < m; i++) {
                    rows.row(i, k);
                    double kd = dot(k, pushed, m);
                    double adj = rowAdj[i] + kd;
                    for (int j = 0; j < m; j++) {
                        logitGrad[j] = k[j] * prevR[i] * (pushed[j] - kd);
                    }
                    if (t > 1) {
                        nextRowAdj[i] = rowStep(t - 1, i, adj, nextColAdj);
                    }
                    rows.addLogitGradient(i, logitGrad, scoreGrad);
                }
                double[] swap = rowAdj;
                rowAdj = nextRowAdj;
                nextRowAdj = swap;
                swap = colAdj;
                colAdj = nextColAdj;
                nextColAdj = swap;
            }
            return value;
        }

        /**
         * The reverse of iteration t's row step for row i, whose row is in {@code k}: given the
         * adjoint of R_t[i], adds the row's part of the adjoint of C_t into {@code colAdj} and its
         * rank-one term of the adjoint of K into {@code logitGrad}; returns the adjoint of R_{t-1}[i]
         * so far (the column step of iteration t adds the rest).
         */
        private double rowStep(int t, int i, double adjR, double[] colAdj) {
            double[] prevR = rowScale.get(t - 1);
            double[] r = rowScale.get(t);
            double[] c = colScale.get(t);
            double p = rowDot.get(t)[i];
            double sum = prevR[i] * p;
            double sumAdj = sum >= EPS ? -adjR * r[i] / sum : 0;
            double front = sumAdj * prevR[i];
            for (int j = 0; j < m; j++) {
                colAdj[j] += front * k[j];
                logitGrad[j] += k[j] * front * (c[j] - p);
            }
            return adjR / clamp(sum) + sumAdj * p;
        }
    }
}
