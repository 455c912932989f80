package rankgrad.autodiff.ops;

import rankgrad.autodiff.Op;
import rankgrad.simd.Workspace;

/**
 * The op instances behind the {@code Ops} catalogue: one factory per primitive, so that the op
 * classes of this package stay package-private (only their behaviour, the {@link Op} interface,
 * leaves it). {@code Ops} documents each op's formula and builds the composites; a new primitive is
 * its class here, a factory in this class and its entry in {@code Ops}.
 *
 * <p>The one public type of a package that the module exports to {@code rankgrad.nn} alone, for
 * {@link #affine(Workspace)}: nn's {@code Linear} needs the affine node with its input gradient in
 * the network's workspace (docs/design.md §2, the workspace), which is no op a user should call.
 */
public final class Primitives {
    private Primitives() {
    }

    /** a + b, broadcasting. */
    public static Op<?> add() {
        return Add.INSTANCE;
    }

    /** a * b elementwise, broadcasting. */
    public static Op<?> mul() {
        return Mul.INSTANCE;
    }

    /** op(A) op(B). */
    public static Op<?> matMul(boolean transA, boolean transB) {
        return MatMul.of(transA, transB);
    }

    /** The sum of all elements (axis -1) or over an axis of a matrix. */
    public static Op<?> sum(int axis, boolean keepDims) {
        return Sum.over(axis, keepDims);
    }

    /** a^p for a constant p. */
    public static Op<?> pow(double p) {
        return Pow.of(p);
    }

    /** e^a. */
    public static Op<?> exp() {
        return Exp.INSTANCE;
    }

    /** ln(a). */
    public static Op<?> log() {
        return Log.INSTANCE;
    }

    /** ln(1 + a). */
    public static Op<?> log1p() {
        return Log1p.INSTANCE;
    }

    /** sqrt(a). */
    public static Op<?> sqrt() {
        return Sqrt.INSTANCE;
    }

    /** ln(1 + e^a). */
    public static Op<?> softplus() {
        return Softplus.INSTANCE;
    }

    /** ln(sigmoid(a)). */
    public static Op<?> logSigmoid() {
        return LogSigmoid.INSTANCE;
    }

    /** logsumexp of all elements. */
    public static Op<?> logSumExpAll(boolean keepDims) {
        return LogSumExp.all(keepDims);
    }

    /** logsumexp of each row of a matrix. */
    public static Op<?> logSumExpPerRow(boolean keepDims) {
        return LogSumExp.perRow(keepDims);
    }

    /** softmax over all elements, or over each row of a matrix. */
    public static Op<?> softmax(boolean perRow) {
        return perRow ? Softmax.PER_ROW : Softmax.ALL;
    }

    /** log-softmax over all elements, or over each row of a matrix. */
    public static Op<?> logSoftmax(boolean perRow) {
        return perRow ? LogSoftmax.PER_ROW : LogSoftmax.ALL;
    }

    /** Rows (or elements) by index. */
    public static Op<?> gather(int... index) {
        return Gather.of(index);
    }

    /** Rows [from, to) of a matrix. */
    public static Op<?> sliceRows(int from, int to) {
        return Slice.rows(from, to);
    }

    /** Columns [from, to) of a matrix, or elements of a vector. */
    public static Op<?> sliceCols(int from, int to) {
        return Slice.cols(from, to);
    }

    /** The inputs stacked by rows, or joined by columns. */
    public static Op<?> concat(boolean rows) {
        return rows ? Concat.ROWS : Concat.COLS;
    }

    /** The same elements with another shape. */
    public static Op<?> reshape(int... shape) {
        return Reshape.to(shape);
    }

    /** The transpose of a matrix. */
    public static Op<?> transpose() {
        return Transpose.INSTANCE;
    }

    /** x m / (1 - rate) for a fixed keep mask m. */
    public static Op<?> dropout(boolean[] keep, double rate) {
        return Dropout.withMask(keep, rate);
    }

    /** max(x, 0). */
    public static Op<?> relu() {
        return Relu.INSTANCE;
    }

    /** x for x &gt; 0, slope * x otherwise. */
    public static Op<?> leakyRelu(double slope) {
        return LeakyRelu.withSlope(slope);
    }

    /** max(0, x) + min(0, alpha (exp(x / alpha) - 1)). */
    public static Op<?> celu(double alpha) {
        return Celu.withAlpha(alpha);
    }

    /** tanh(x). */
    public static Op<?> tanh() {
        return Tanh.INSTANCE;
    }

    /** 1 / (1 + exp(-x)). */
    public static Op<?> sigmoid() {
        return Sigmoid.INSTANCE;
    }

    /** x W + b in one node. */
    public static Op<?> affine() {
        return Affine.INSTANCE;
    }

    /**
     * x W + b with dX taken from {@code workspace}, for a caller that guarantees X is the output of
     * a node of the same network that gives dX back in its backward (see {@link Workspace}).
     */
    public static Op<?> affine(Workspace workspace) {
        return Affine.withInputGradientIn(workspace);
    }
}
