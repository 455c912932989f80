package rankgrad.autodiff;

import rankgrad.autodiff.ops.Add;
import rankgrad.autodiff.ops.MatMul;
import rankgrad.autodiff.ops.Mul;
import rankgrad.autodiff.ops.Sum;

/**
 * The catalogue of built-in differentiable ops. Each primitive is one small class in
 * {@code rankgrad.autodiff.ops} implementing {@link Op}; composites (sub, div, mean, ...) are
 * built from primitives here and need no backward of their own.
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
        return Var.apply(Add.INSTANCE, a, b);
    }

    /** a + c for a constant c. */
    public static Var add(Var a, double c) {
        return add(a, scalar(a, c));
    }

    /** a * b, elementwise. */
    public static Var mul(Var a, Var b) {
        return Var.apply(Mul.INSTANCE, a, b);
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
        return Var.apply(MatMul.of(transA, transB), a, b);
    }

    /** Sum of all elements, a scalar. */
    public static Var sum(Var a) {
        return Var.apply(Sum.over(-1, false), a);
    }

    /** Sum over an axis of a matrix: 0 sums over rows (one value per column), 1 over columns. */
    public static Var sum(Var a, int axis, boolean keepDims) {
        return Var.apply(Sum.over(axis, keepDims), a);
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

    // Activations and fused layer ops; names are fully qualified so that this block leaves the
    // imports above untouched (other ops are added there in parallel).

    /** max(x, 0) elementwise ({@link rankgrad.autodiff.ops.Relu}). */
    public static Var relu(Var x) {
        return Var.apply(rankgrad.autodiff.ops.Relu.INSTANCE, x);
    }

    /** x for x &gt; 0, slope * x otherwise ({@link rankgrad.autodiff.ops.LeakyRelu}). */
    public static Var leakyRelu(Var x, double slope) {
        return Var.apply(rankgrad.autodiff.ops.LeakyRelu.withSlope(slope), x);
    }

    /** max(0, x) + min(0, alpha (exp(x / alpha) - 1)) ({@link rankgrad.autodiff.ops.Celu}). */
    public static Var celu(Var x, double alpha) {
        return Var.apply(rankgrad.autodiff.ops.Celu.withAlpha(alpha), x);
    }

    /** tanh(x) elementwise ({@link rankgrad.autodiff.ops.Tanh}). */
    public static Var tanh(Var x) {
        return Var.apply(rankgrad.autodiff.ops.Tanh.INSTANCE, x);
    }

    /** 1 / (1 + exp(-x)) elementwise, stable for large |x| ({@link rankgrad.autodiff.ops.Sigmoid}). */
    public static Var sigmoid(Var x) {
        return Var.apply(rankgrad.autodiff.ops.Sigmoid.INSTANCE, x);
    }

    /** x W + b for x (n x in), W (in x out), b (out) in one node ({@link rankgrad.autodiff.ops.Affine}). */
    public static Var affine(Var x, Var w, Var b) {
        return Var.apply(rankgrad.autodiff.ops.Affine.INSTANCE, x, w, b);
    }
}
