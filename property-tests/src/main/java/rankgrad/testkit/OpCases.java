package rankgrad.testkit;

import static rankgrad.testkit.Shapes.m;
import static rankgrad.testkit.Shapes.s;
import static rankgrad.testkit.Shapes.shapes;
import static rankgrad.testkit.Shapes.v;

import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.Regularization;
import rankgrad.ltr.rank.SoftRank;
import rankgrad.ltr.rank.SoftSort;
import rankgrad.nn.ops.AttentionLayout;
import rankgrad.nn.ops.AttentionMix;
import rankgrad.nn.ops.AttentionScores;
import rankgrad.nn.ops.LayerNorm;
import rankgrad.nn.ops.RaggedSoftmax;
import rankgrad.nn.ops.ScaledDotProductAttention;

/**
 * Every built-in op, with its broadcasting, transpose and axis variants, as an {@link OpCase}: the
 * catalogue to run a gradient or precision law over when something under all ops changes (a
 * kernel provider, an engine change), and examples of how to describe an op. It covers every
 * public static method of {@link Ops} that returns a {@link Var}, and every public factory of an op
 * class that {@code Ops} does not reach (the fused training layers, layer norm and attention);
 * {@link #byEntryPoint()} says which cases exercise which, and a test fails when an entry point has
 * no case.
 *
 * <p>Value intervals: [-2, 2] for smooth ops, [0.5, 2] or so where a log, root, negative power or
 * division needs positive inputs (at least 0.5 away from the singularity at 0, so a step of 1e-6
 * never straddles it). Kinks (relu, leakyRelu, celu at 0, and the ReLU of the fused layer) are
 * kept at a margin by {@code KinkMargins}; each margin is justified where it is declared.
 *
 * <p>Side inputs: a number of the op itself (a slope, a rate, a dropout mask, an eps, running
 * statistics) is drawn as an extra input of the case, so that QuickTheories draws and shrinks it
 * like every other number, and the body reads it from the example, not from the
 * perturbed inputs: it is a constant of the op, and the gradient law checks that its gradient, 0,
 * matches the central difference, also 0.
 *
 * <pre>{@code
 * for (OpCase op : OpCases.all()) {     // or a parameterized test over OpCases.all()
 *     qt().forAll(op.examples(), longs().all())
 *             .checkAssert((e, seed) -> GradientLaws.assertBackwardMatchesCentralDifference(op, e, seed, 1e-6));
 * }
 * }</pre>
 */
public final class OpCases {
    private static final double LO = -2;
    private static final double HI = 2;
    private static final double POS_LO = 0.5;
    private static final double POS_HI = 2;

    /**
     * Distance kept between the inputs of relu, leakyRelu and celu and their kink at 0 (for celu a
     * jump of the second derivative, which costs a central difference straddling it O(h / alpha)).
     * A gradient check moves each input element by at most its step h = 1e-6 and float32 rounding
     * by at most 1.2e-7; 1e-3 is 1000 steps away.
     */
    private static final double KINK_MARGIN = 1e-3;

    private OpCases() {
    }

    /** Every built-in op and variant, about 100 cases. */
    public static List<OpCase> all() {
        return catalogue().cases();
    }

    /**
     * The cases of {@link #all()} filed under the public entry point each exercises, written as
     * {@code Class.method(ParameterTypes)} with simple type names and no spaces
     * ({@code "Ops.add(Var,Var)"}, {@code "Ops.concatRows(Var[])"},
     * {@code "BatchNorm.training(double,StatisticsSink)"}), {@code new Class(ParameterTypes)} for a
     * constructor, or {@code Class.FIELD} for a constant.
     */
    public static Map<String, List<OpCase>> byEntryPoint() {
        return catalogue().byEntryPoint();
    }

    /**
     * The rank operators of {@code rankgrad.ltr.rank} whose backward is the gradient of their
     * forward, as cases on a ragged batch of two queries of d0 and d1 documents: soft rank and soft
     * sort (Blondel et al. 2020), quadratic and entropic, at strengths 0.1, 1 and 10. Both are
     * piecewise smooth, with kinks where two isotonic blocks have equal values, which continuous
     * random inputs miss. Soft ranks are smooth at tied scores too (ties always share a block); a
     * sort is not (which tied value goes first decides where a position's gradient goes), so the
     * soft sort sees x_i + i / 2 for x in [-0.2, 0.2]: values at least 0.1 apart, every order
     * still reached through the strength. Filed apart from {@link #all()}, whose catalogue covers
     * the engine's and the layers' entry points.
     */
    public static List<OpCase> rankOperators() {
        CaseRegistry r = new CaseRegistry();
        for (Regularization reg : Regularization.values()) {
            for (double eps : new double[] {0.1, 1, 10}) {
                r.add("SoftRank.of(QueryBatch,Regularization,double)", new OpCase("softRank " + reg + " eps " + eps
                        + " on queries of d0, d1", d -> shapes(v(d[0] + d[1])), LO, HI,
                        (e, x) -> SoftRank.of(twoQueries(e), reg, eps).apply(x[0])));
                r.add("SoftSort.of(QueryBatch,Regularization,double)", new OpCase("softSort " + reg + " eps " + eps
                        + " of x + i/2 on queries of d0, d1", d -> shapes(v(d[0] + d[1])), -0.2, 0.2,
                        (e, x) -> SoftSort.of(twoQueries(e), reg, eps).apply(Ops.add(x[0], Var.constant(ladder(x[0]))))));
            }
        }
        return r.cases();
    }

    /** 0, 1/2, 1, ... in the dtype of {@code x}, one per element. */
    private static Tensor ladder(Var x) {
        Tensor t = Tensor.zerosLike(x.value());
        for (int i = 0; i < t.size(); i++) {
            t.set(i, i / 2.0);
        }
        return t;
    }

    /** A batch of two queries of d0 and d1 documents (labels 0: the soft operators do not read them). */
    private static QueryBatch twoQueries(OpExample e) {
        int d0 = e.dims()[0];
        int d1 = e.dims()[1];
        return new QueryBatch(new int[] {0, d0, d0 + d1}, new float[d0 + d1]);
    }

    private static CaseRegistry catalogue() {
        CaseRegistry r = new CaseRegistry();
        binary(r, "Ops.add(Var,Var)", "add", Ops::add);
        binary(r, "Ops.mul(Var,Var)", "mul", Ops::mul);
        r.add("Ops.sub(Var,Var)", OpCase.of("sub full-row", d -> shapes(m(d[0], d[1]), v(d[1])), LO, HI, x -> Ops.sub(x[0], x[1])));
        r.add("Ops.sub(Var,Var)", OpCase.of("sub column-full", d -> shapes(m(d[0], 1), m(d[0], d[1])), LO, HI, x -> Ops.sub(x[0], x[1])));
        r.add("Ops.neg(Var)", OpCase.of("neg", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.neg(x[0])));
        r.add("Ops.div(Var,Var)", OpCase.of("div full/full", d -> shapes(m(d[0], d[1]), m(d[0], d[1])), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        r.add("Ops.div(Var,Var)", OpCase.of("div full/column", d -> shapes(m(d[0], d[1]), m(d[0], 1)), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        r.add("Ops.div(Var,Var)", OpCase.of("div scalar/row", d -> shapes(s(), v(d[1])), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        r.add("Ops.matmul(Var,boolean,Var,boolean)", OpCase.of("matmul NN", d -> shapes(m(d[0], d[2]), m(d[2], d[1])), LO, HI, x -> Ops.matmul(x[0], false, x[1], false)));
        r.add("Ops.matmul(Var,boolean,Var,boolean)", OpCase.of("matmul TN", d -> shapes(m(d[2], d[0]), m(d[2], d[1])), LO, HI, x -> Ops.matmul(x[0], true, x[1], false)));
        r.add("Ops.matmul(Var,boolean,Var,boolean)", OpCase.of("matmul NT", d -> shapes(m(d[0], d[2]), m(d[1], d[2])), LO, HI, x -> Ops.matmul(x[0], false, x[1], true)));
        r.add("Ops.matmul(Var,boolean,Var,boolean)", OpCase.of("matmul TT", d -> shapes(m(d[2], d[0]), m(d[1], d[2])), LO, HI, x -> Ops.matmul(x[0], true, x[1], true)));
        r.add("Ops.sum(Var)", OpCase.of("sum all of matrix", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.sum(x[0])));
        r.add("Ops.sum(Var)", OpCase.of("sum all of vector", d -> shapes(v(d[0])), LO, HI, x -> Ops.sum(x[0])));
        for (int axis = 0; axis <= 1; axis++) {
            for (boolean keep : new boolean[] {false, true}) {
                int a = axis;
                r.add("Ops.sum(Var,int,boolean)", OpCase.of("sum axis " + a + (keep ? " keepDims" : ""),
                        d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.sum(x[0], a, keep)));
                r.add("Ops.logSumExp(Var,int,boolean)", OpCase.of("logSumExp axis " + a + (keep ? " keepDims" : ""),
                        d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.logSumExp(x[0], a, keep)));
            }
        }
        r.add("Ops.mean(Var)", OpCase.of("mean all", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0])));
        r.add("Ops.mean(Var,int,boolean)", OpCase.of("mean axis 0", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0], 0, false)));
        r.add("Ops.mean(Var,int,boolean)", OpCase.of("mean axis 1 keepDims", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0], 1, true)));
        for (double p : new double[] {2, 3, -1, 0.5, -1.5, 1.7}) {
            r.add("Ops.pow(Var,double)", OpCase.of("pow " + p, d -> shapes(m(d[0], d[1])), POS_LO, POS_HI, x -> Ops.pow(x[0], p)));
        }
        unary(r, "Ops.exp(Var)", "exp", LO, HI, Ops::exp);
        unary(r, "Ops.log(Var)", "log", POS_LO, 3, Ops::log);
        unary(r, "Ops.log1p(Var)", "log1p", -0.5, HI, Ops::log1p);
        unary(r, "Ops.sqrt(Var)", "sqrt", POS_LO, 3, Ops::sqrt);
        unary(r, "Ops.softplus(Var)", "softplus", -4, 4, Ops::softplus);
        unary(r, "Ops.logSigmoid(Var)", "logSigmoid", -4, 4, Ops::logSigmoid);
        r.add("Ops.logSumExp(Var)", OpCase.of("logSumExp all of matrix", d -> shapes(m(d[0], d[1])), -3, 3, x -> Ops.logSumExp(x[0])));
        r.add("Ops.logSumExp(Var)", OpCase.of("logSumExp all of vector", d -> shapes(v(d[0])), -3, 3, x -> Ops.logSumExp(x[0])));
        softmaxes(r, "softmax", Ops::softmax, Ops::softmax);
        softmaxes(r, "logSoftmax", Ops::logSoftmax, Ops::logSoftmax);
        r.add("Ops.gather(Var,int[])", new OpCase("gather rows (repeats)", d -> shapes(m(d[0], d[1])), LO, HI,
                (e, x) -> Ops.gather(x[0], e.picks())));
        r.add("Ops.gather(Var,int[])", new OpCase("gather vector elements (repeats)", d -> shapes(v(d[0])), LO, HI,
                (e, x) -> Ops.gather(x[0], e.picks())));
        r.add("Ops.sliceRows(Var,int,int)", new OpCase("sliceRows", d -> shapes(m(d[0], d[1])), LO, HI,
                (e, x) -> Ops.sliceRows(x[0], from(e), to(e))));
        r.add("Ops.sliceCols(Var,int,int)", new OpCase("sliceCols of matrix", d -> shapes(m(d[1], d[0])), LO, HI,
                (e, x) -> Ops.sliceCols(x[0], from(e), to(e))));
        r.add("Ops.sliceCols(Var,int,int)", new OpCase("sliceCols of vector", d -> shapes(v(d[0])), LO, HI,
                (e, x) -> Ops.sliceCols(x[0], from(e), to(e))));
        r.add("Ops.concatRows(Var[])", OpCase.of("concatRows", d -> shapes(m(d[0], d[1]), v(d[1]), m(d[2], d[1])), LO, HI, Ops::concatRows));
        r.add("Ops.concatCols(Var[])", OpCase.of("concatCols of matrices", d -> shapes(m(d[0], d[1]), m(d[0], d[2]), m(d[0], 1)), LO, HI, Ops::concatCols));
        r.add("Ops.concatCols(Var[])", OpCase.of("concatCols of vectors", d -> shapes(v(d[0]), v(d[1])), LO, HI, Ops::concatCols));
        r.add("Ops.reshape(Var,int[])", OpCase.of("reshape matrix to vector", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.reshape(x[0], x[0].value().size())));
        r.add("Ops.reshape(Var,int[])", OpCase.of("reshape matrix to matrix", d -> shapes(m(d[0], d[1])), LO, HI,
                x -> Ops.reshape(x[0], x[0].value().dim(1), x[0].value().dim(0))));
        r.add("Ops.transpose(Var)", OpCase.of("transpose", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.transpose(x[0])));
        attention(r);
        constants(r);
        activations(r);
        r.add("Ops.affine(Var,Var,Var)", OpCase.of("affine d0 x d1 to d2", d -> shapes(m(d[0], d[1]), m(d[1], d[2]), v(d[2])),
                LO, HI, x -> Ops.affine(x[0], x[1], x[2])));
        LayerCases.addTo(r);
        return r;
    }

    /**
     * The listwise-attention ops on two lists of d0 and d1 documents: the ragged softmax over rows
     * of d0, d1 and d2 values, scores, softmax and mix together (2 heads of d2 columns), the same
     * fused into one node, and the layer norm of the attention block.
     */
    private static void attention(CaseRegistry r) {
        // eps 1e-2, not PyTorch's 1e-5: a generated row of nearly equal values would otherwise put
        // 1/sqrt(var + eps) where a central difference of step 1e-6 is no longer accurate.
        r.add("new LayerNorm(double)", OpCase.of("layerNorm d0 x (d1 + 2)", d -> shapes(m(d[0], d[1] + 2), v(d[1] + 2), v(d[1] + 2)), LO, HI,
                x -> Var.apply(new LayerNorm(1e-2), x[0], x[1], x[2])));
        r.add("new RaggedSoftmax(int[])", new OpCase("raggedSoftmax rows d0, d1, d2", d -> shapes(v(d[0] + d[1] + d[2])), -3, 3,
                (e, x) -> Var.apply(new RaggedSoftmax(new int[] {0, e.dims()[0], e.dims()[0] + e.dims()[1],
                    x[0].value().size()}), x[0])));
        r.addCovering(new OpCase("self-attention over lists of d0, d1", d -> shapes(m(d[0] + d[1], 2 * d[2]),
                m(d[0] + d[1], 2 * d[2]), m(d[0] + d[1], 2 * d[2])), LO, HI, (e, x) -> {
                    AttentionLayout layout = new AttentionLayout(new int[] {0, e.dims()[0], e.dims()[0] + e.dims()[1]}, 2);
                    Var s = Var.apply(new AttentionScores(layout, 1 / Math.sqrt(e.dims()[2])), x[0], x[1]);
                    return Var.apply(new AttentionMix(layout), Var.apply(new RaggedSoftmax(layout.rowStarts()), s), x[2]);
                }), "new AttentionScores(AttentionLayout,double)", "new AttentionMix(AttentionLayout)", "new RaggedSoftmax(int[])");
        r.add("new ScaledDotProductAttention(AttentionLayout,double)", new OpCase("fused self-attention over lists of d0,"
                + " d1", d -> shapes(m(d[0] + d[1], 2 * d[2]), m(d[0] + d[1], 2 * d[2]), m(d[0] + d[1], 2 * d[2])), LO, HI,
                (e, x) -> Var.apply(new ScaledDotProductAttention(new AttentionLayout(new int[] {0, e.dims()[0],
                    e.dims()[0] + e.dims()[1]}, 2), 1 / Math.sqrt(e.dims()[2])), x[0], x[1], x[2])));
    }

    /** The ops with a constant operand, the constant a side input (see the class comment). */
    private static void constants(CaseRegistry r) {
        r.add("Ops.scalar(Var,double)", new OpCase("full times scalar constant", d -> shapes(m(d[0], d[1]), s()), LO, HI,
                (e, x) -> Ops.mul(x[0], Ops.scalar(x[0], sideScalar(e, 1)))));
        r.add("Ops.add(Var,double)", new OpCase("add constant", d -> shapes(m(d[0], d[1]), s()), LO, HI,
                (e, x) -> Ops.add(x[0], sideScalar(e, 1))));
        r.add("Ops.mul(Var,double)", new OpCase("mul constant", d -> shapes(m(d[0], d[1]), s()), LO, HI,
                (e, x) -> Ops.mul(x[0], sideScalar(e, 1))));
        r.add("Ops.div(Var,double)", new OpCase("div by constant", d -> shapes(m(d[0], d[1]), s()), POS_LO, POS_HI,
                (e, x) -> Ops.div(x[0], sideScalar(e, 1))));
        r.add("Ops.matmul(Var,Var)", OpCase.of("matmul", d -> shapes(m(d[0], d[2]), m(d[2], d[1])), LO, HI,
                x -> Ops.matmul(x[0], x[1])));
    }

    /**
     * The activations and dropout. relu, leakyRelu and celu see their input moved at least
     * {@link #KINK_MARGIN} from 0 ({@link KinkMargins#awayFromZero}); leakyRelu's slope is drawn in
     * [-2, 2] (any finite slope is valid), celu's alpha in [0.25, 2.25] (alpha = 0.25 + (u + 2) / 2;
     * positive, and x / alpha &gt;= -8 keeps exp(x / alpha) far from underflow).
     *
     * <p>Dropout's mask is fixed per example, as {@code Ops.dropout} takes it: with a fixed mask the
     * op is linear in x, so the central difference and float32 run see the same function as the
     * backward (a mask redrawn per forward call, as a training step does, would compare two
     * functions). The mask and the rate are side inputs, so QuickTheories draws and shrinks them:
     * rate = 0.9 (r + 2) / 4 in [0, 0.9], and element i is kept when (u_i + 2) / 4 &gt;= rate, the
     * rule of the Dropout layer's mask with u_i in place of its uniform draw.
     */
    private static void activations(CaseRegistry r) {
        r.add("Ops.relu(Var)", new OpCase("relu", d -> shapes(m(d[0], d[1])), LO, HI,
                (e, x) -> Ops.relu(KinkMargins.awayFromZero(x[0], e.inputs()[0], KINK_MARGIN))));
        r.add("Ops.leakyRelu(Var,double)", new OpCase("leakyRelu", d -> shapes(m(d[0], d[1]), s()), LO, HI,
                (e, x) -> Ops.leakyRelu(KinkMargins.awayFromZero(x[0], e.inputs()[0], KINK_MARGIN), sideScalar(e, 1))));
        r.add("Ops.celu(Var,double)", new OpCase("celu", d -> shapes(m(d[0], d[1]), s()), LO, HI,
                (e, x) -> Ops.celu(KinkMargins.awayFromZero(x[0], e.inputs()[0], KINK_MARGIN),
                        0.25 + (sideScalar(e, 1) + 2) / 2)));
        unary(r, "Ops.tanh(Var)", "tanh", -4, 4, Ops::tanh);
        unary(r, "Ops.sigmoid(Var)", "sigmoid", -4, 4, Ops::sigmoid);
        r.add("Ops.dropout(Var,boolean[],double)", new OpCase("dropout", d -> shapes(m(d[0], d[1]), m(d[0], d[1]), s()),
                LO, HI, (e, x) -> {
                    double rate = 0.9 * (sideScalar(e, 2) + 2) / 4;
                    double[] u = e.inputs()[1].toDoubleArray();
                    boolean[] keep = new boolean[u.length];
                    for (int i = 0; i < u.length; i++) {
                        keep[i] = (u[i] + 2) / 4 >= rate;
                    }
                    return Ops.dropout(x[0], keep, rate);
                }));
    }

    /** Scalar side input {@code k} of the example, rounded to float32 so that both dtypes see one value. */
    static double sideScalar(OpExample e, int k) {
        return (float) e.inputs()[k].item();
    }

    /** Side input {@code k} of the example, rounded to float32 (as {@link #sideScalar}), in {@code dtype}. */
    static Tensor side(OpExample e, int k, DType dtype) {
        return e.inputs()[k].to(DType.F32).to(dtype);
    }

    /** The broadcasting variants of a binary elementwise op. */
    private static void binary(CaseRegistry r, String entryPoint, String name, BinaryOperator<Var> op) {
        Function<Var[], Var> f = x -> op.apply(x[0], x[1]);
        r.add(entryPoint, OpCase.of(name + " full+full", d -> shapes(m(d[0], d[1]), m(d[0], d[1])), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " full+row vector", d -> shapes(m(d[0], d[1]), v(d[1])), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " full+row matrix", d -> shapes(m(d[0], d[1]), m(1, d[1])), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " full+column", d -> shapes(m(d[0], d[1]), m(d[0], 1)), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " full+scalar", d -> shapes(m(d[0], d[1]), s()), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " column+row", d -> shapes(m(d[0], 1), v(d[1])), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " scalar+vector", d -> shapes(s(), v(d[1])), LO, HI, f));
        r.add(entryPoint, OpCase.of(name + " vector+vector", d -> shapes(v(d[1]), v(d[1])), LO, HI, f));
    }

    private static void unary(CaseRegistry r, String entryPoint, String name, double lo, double hi, UnaryOperator<Var> op) {
        r.add(entryPoint, OpCase.of(name, d -> shapes(m(d[0], d[1])), lo, hi, x -> op.apply(x[0])));
    }

    private static void softmaxes(CaseRegistry r, String name, UnaryOperator<Var> lastAxis,
            BiFunction<Var, Integer, Var> byAxis) {
        r.add("Ops." + name + "(Var)", OpCase.of(name + " of vector", d -> shapes(v(d[0])), -3, 3, x -> lastAxis.apply(x[0])));
        r.add("Ops." + name + "(Var)", OpCase.of(name + " rows of matrix", d -> shapes(m(d[0], d[1])), -3, 3, x -> lastAxis.apply(x[0])));
        for (int axis = -1; axis <= 1; axis++) {
            int a = axis;
            r.add("Ops." + name + "(Var,int)", OpCase.of(name + " axis " + a, d -> shapes(m(d[0], d[1])), -3, 3, x -> byAxis.apply(x[0], a)));
        }
    }

    /** A slice [from, to) from the first two picks, both below d0: never empty, any position. */
    private static int from(OpExample e) {
        return Math.min(e.picks()[0], e.picks()[1]);
    }

    private static int to(OpExample e) {
        return Math.max(e.picks()[0], e.picks()[1]) + 1;
    }
}
