package rankgrad.autodiff;

import rankgrad.autodiff.ops.Primitives;

/**
 * The catalogue of built-in differentiable ops. Each primitive is one small package-private class
 * in {@code rankgrad.autodiff.ops} implementing {@link Op}, made by that package's {@code
 * Primitives}; composites (sub, div, mean, ...) are built from primitives here and need no
 * backward of their own.
 *
 * <p>Binary elementwise ops broadcast scalars, rows and columns ({@code ops.Broadcast}).
 */
public final class Ops {
    private Ops() {
    }

    /** A constant scalar of {@code like}'s dtype. */
    public static Var scalar(Var like, double value) {
        return Var.constant(Tensor.scalar(like.dtype(), value));
    }

    /** a + b. */
    public static Var add(Var a, Var b) {
        return Var.apply(Primitives.add(), a, b);
    }

    /** a + c for a constant c. */
    public static Var add(Var a, double c) {
        return add(a, scalar(a, c));
    }

    /** a * b, elementwise. */
    public static Var mul(Var a, Var b) {
        return Var.apply(Primitives.mul(), a, b);
    }

    /** a * c for a constant c. */
    public static Var mul(Var a, double c) {
        return mul(a, scalar(a, c));
    }

    /** -a. */
    public static Var neg(Var a) {
        return mul(a, -1.0);
    }

    /** a - b = a + (-b). */
    public static Var sub(Var a, Var b) {
        return add(a, neg(b));
    }

    /** A B for matrices. */
    public static Var matmul(Var a, Var b) {
        return matmul(a, false, b, false);
    }

    /** op(A) op(B), where op transposes when its flag is set. */
    public static Var matmul(Var a, boolean transA, Var b, boolean transB) {
        return Var.apply(Primitives.matMul(transA, transB), a, b);
    }

    /** Sum of all elements, a scalar. */
    public static Var sum(Var a) {
        return Var.apply(Primitives.sum(-1, false), a);
    }

    /** Sum over an axis of a matrix: 0 sums over rows (one value per column), 1 over columns. */
    public static Var sum(Var a, int axis, boolean keepDims) {
        return Var.apply(Primitives.sum(axis, keepDims), a);
    }

    /**
     * a / b = a * b^-1 elementwise, with the broadcasting of {@link #mul(Var, Var)}; b^-1 is the
     * correctly rounded reciprocal of {@link #pow(Var, double)}. dL/da = g / b, dL/db = -g a / b^2.
     */
    public static Var div(Var a, Var b) {
        return mul(a, pow(b, -1));
    }

    /** a / c for a constant c, as a * (1 / c). */
    public static Var div(Var a, double c) {
        return mul(a, 1.0 / c);
    }

    /** a^p elementwise for a constant p; d/da = p a^(p-1). Negative a with non-integer p gives NaN. */
    public static Var pow(Var a, double p) {
        return Var.apply(Primitives.pow(p), a);
    }

    /** e^a elementwise; d/da = e^a. */
    public static Var exp(Var a) {
        return Var.apply(Primitives.exp(), a);
    }

    /** ln(a) elementwise; d/da = 1 / a. */
    public static Var log(Var a) {
        return Var.apply(Primitives.log(), a);
    }

    /** ln(1 + a) elementwise, accurate for small |a|; d/da = 1 / (1 + a). */
    public static Var log1p(Var a) {
        return Var.apply(Primitives.log1p(), a);
    }

    /** sqrt(a) elementwise; d/da = 1 / (2 sqrt(a)). */
    public static Var sqrt(Var a) {
        return Var.apply(Primitives.sqrt(), a);
    }

    /**
     * softplus(a) = ln(1 + e^a) elementwise, computed as max(a, 0) + log1p(e^-|a|), which neither
     * overflows nor cancels; d/da = sigmoid(a).
     */
    public static Var softplus(Var a) {
        return Var.apply(Primitives.softplus(), a);
    }

    /**
     * ln(sigmoid(a)) = -softplus(-a) elementwise, computed as min(a, 0) - log1p(e^-|a|), finite for
     * every finite a; d/da = sigmoid(-a).
     */
    public static Var logSigmoid(Var a) {
        return Var.apply(Primitives.logSigmoid(), a);
    }

    /**
     * logsumexp(a) = ln(sum_j e^(a_j)) over all elements, a scalar, computed as
     * m + ln(sum_j e^(a_j - m)) with m = max_j a_j so that nothing overflows; d/da = softmax(a).
     */
    public static Var logSumExp(Var a) {
        return Var.apply(Primitives.logSumExpAll(false), a);
    }

    /**
     * logsumexp over an axis of a matrix, stable as {@link #logSumExp(Var)}: axis 1 gives one value
     * per row, ln(sum_j e^(a_ij)); axis 0 one per column, ln(sum_i e^(a_ij)). With keepDims the
     * result is rows x 1 (axis 1) or 1 x cols (axis 0) and broadcasts back against {@code a}.
     */
    public static Var logSumExp(Var a, int axis, boolean keepDims) {
        checkMatrix(a, "logSumExp over axis " + axis, "logSumExp(a) reduces all elements");
        return switch (axis) {
            case 1 -> Var.apply(Primitives.logSumExpPerRow(keepDims), a);
            case 0 -> {
                Var perCol = Var.apply(Primitives.logSumExpPerRow(false), transpose(a));
                yield keepDims ? reshape(perCol, 1, a.value().cols()) : perCol;
            }
            default -> throw new IllegalArgumentException("logSumExp axis must be 0 or 1, got " + axis
                    + "; logSumExp(a) reduces all elements");
        };
    }

    /**
     * softmax over the last axis: each row of a matrix, or the whole of a vector.
     * softmax(a)_j = e^(a_j - m) / sum_k e^(a_k - m), m = max_k a_k.
     */
    public static Var softmax(Var a) {
        return softmax(a, a.value().rank() == 2 ? 1 : -1);
    }

    /**
     * softmax over all elements (axis -1), each column (axis 0) or each row (axis 1) of a matrix,
     * stable as {@link #softmax(Var)}; d/da_j of sum_k g_k y_k is y_j (g_j - sum_k g_k y_k).
     */
    public static Var softmax(Var a, int axis) {
        if (axis == -1) {
            return Var.apply(Primitives.softmax(false), a);
        }
        checkMatrix(a, "softmax over axis " + axis, "use axis -1 for all elements");
        return switch (axis) {
            case 1 -> Var.apply(Primitives.softmax(true), a);
            case 0 -> transpose(Var.apply(Primitives.softmax(true), transpose(a)));
            default -> throw new IllegalArgumentException("softmax axis must be -1, 0 or 1, got " + axis);
        };
    }

    /**
     * log-softmax over the last axis: each row of a matrix, or the whole of a vector.
     * logSoftmax(a)_j = a_j - logsumexp(a) = (a_j - m) - ln(sum_k e^(a_k - m)).
     */
    public static Var logSoftmax(Var a) {
        return logSoftmax(a, a.value().rank() == 2 ? 1 : -1);
    }

    /**
     * log-softmax over all elements (axis -1), each column (axis 0) or each row (axis 1) of a
     * matrix, stable as {@link #logSoftmax(Var)}; d/da_j of sum_k g_k y_k is g_j - e^(y_j) sum_k g_k.
     */
    public static Var logSoftmax(Var a, int axis) {
        if (axis == -1) {
            return Var.apply(Primitives.logSoftmax(false), a);
        }
        checkMatrix(a, "logSoftmax over axis " + axis, "use axis -1 for all elements");
        return switch (axis) {
            case 1 -> Var.apply(Primitives.logSoftmax(true), a);
            case 0 -> transpose(Var.apply(Primitives.logSoftmax(true), transpose(a)));
            default -> throw new IllegalArgumentException("logSoftmax axis must be -1, 0 or 1, got " + axis);
        };
    }

    /**
     * Selects by integer indices: y[i] = a[index[i]], rows of a matrix or elements of a vector.
     * Indices may repeat; the gradient of a repeated item is the sum of its copies' gradients.
     */
    public static Var gather(Var a, int... index) {
        return Var.apply(Primitives.gather(index), a);
    }

    /** Rows [from, to) of a matrix, a (to - from) x cols matrix. */
    public static Var sliceRows(Var a, int from, int to) {
        return Var.apply(Primitives.sliceRows(from, to), a);
    }

    /** Columns [from, to) of a matrix, or elements [from, to) of a vector. */
    public static Var sliceCols(Var a, int from, int to) {
        return Var.apply(Primitives.sliceCols(from, to), a);
    }

    /** The parts' rows stacked into one matrix (parts: matrices or 1 x n vectors, equal columns). */
    public static Var concatRows(Var... parts) {
        return Var.apply(Primitives.concat(true), parts);
    }

    /** The parts' columns joined (equal rows); a vector when all parts are vectors. */
    public static Var concatCols(Var... parts) {
        return Var.apply(Primitives.concat(false), parts);
    }

    /** The same elements, row-major, with another shape of equal size. */
    public static Var reshape(Var a, int... shape) {
        return Var.apply(Primitives.reshape(shape), a);
    }

    /** The transpose of a matrix, a^T. */
    public static Var transpose(Var a) {
        return Var.apply(Primitives.transpose(), a);
    }

    private static void checkMatrix(Var a, String what, String hint) {
        if (a.value().rank() != 2) {
            throw new IllegalArgumentException(what + " needs a matrix, got shape "
                    + java.util.Arrays.toString(a.value().shape()) + "; " + hint);
        }
    }

    /** Mean of all elements. */
    public static Var mean(Var a) {
        return mul(sum(a), 1.0 / a.value().size());
    }

    /** Mean over an axis of a matrix (see {@link #sum(Var, int, boolean)}). */
    public static Var mean(Var a, int axis, boolean keepDims) {
        int n = axis == 0 ? a.value().rows() : a.value().cols();
        return mul(sum(a, axis, keepDims), 1.0 / n);
    }

    /** x m / (1 - rate) elementwise for a fixed keep mask m ({@code ops.Dropout}). */
    public static Var dropout(Var x, boolean[] keep, double rate) {
        return Var.apply(Primitives.dropout(keep, rate), x);
    }

    /** max(x, 0) elementwise ({@code ops.Relu}). */
    public static Var relu(Var x) {
        return Var.apply(Primitives.relu(), x);
    }

    /** x for x &gt; 0, slope * x otherwise ({@code ops.LeakyRelu}). */
    public static Var leakyRelu(Var x, double slope) {
        return Var.apply(Primitives.leakyRelu(slope), x);
    }

    /** max(0, x) + min(0, alpha (exp(x / alpha) - 1)) ({@code ops.Celu}). */
    public static Var celu(Var x, double alpha) {
        return Var.apply(Primitives.celu(alpha), x);
    }

    /** tanh(x) elementwise ({@code ops.Tanh}). */
    public static Var tanh(Var x) {
        return Var.apply(Primitives.tanh(), x);
    }

    /** 1 / (1 + exp(-x)) elementwise, stable for large |x| ({@code ops.Sigmoid}). */
    public static Var sigmoid(Var x) {
        return Var.apply(Primitives.sigmoid(), x);
    }

    /** x W + b for x (n x in), W (in x out), b (out) in one node ({@code ops.Affine}). */
    public static Var affine(Var x, Var w, Var b) {
        return Var.apply(Primitives.affine(), x, w, b);
    }
}
