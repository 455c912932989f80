package rankgrad.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.AttentionLayout;
import rankgrad.nn.ops.AttentionMix;
import rankgrad.nn.ops.AttentionScores;
import rankgrad.nn.ops.LayerNorm;
import rankgrad.nn.ops.RaggedSoftmax;

/**
 * Every built-in op of {@link Ops}, with its broadcasting, transpose and axis variants, as an
 * {@link OpCase}: the catalogue to run a gradient or precision law over when something under all
 * ops changes (a kernel provider, an engine change), and examples of how to describe an op.
 * Value intervals: [-2, 2] for smooth ops, [0.5, 2] or so where a log, root, negative power or
 * division needs positive inputs (at least 0.5 away from the singularity at 0, so a step of 1e-6
 * never straddles it).
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

    private OpCases() {
    }

    /** Every built-in op and variant, about 75 cases. */
    public static List<OpCase> all() {
        List<OpCase> cases = new ArrayList<>();
        binary(cases, "add", Ops::add);
        binary(cases, "mul", Ops::mul);
        cases.add(OpCase.of("sub full-row", d -> shapes(m(d[0], d[1]), v(d[1])), LO, HI, x -> Ops.sub(x[0], x[1])));
        cases.add(OpCase.of("sub column-full", d -> shapes(m(d[0], 1), m(d[0], d[1])), LO, HI, x -> Ops.sub(x[0], x[1])));
        cases.add(OpCase.of("neg", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.neg(x[0])));
        cases.add(OpCase.of("div full/full", d -> shapes(m(d[0], d[1]), m(d[0], d[1])), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        cases.add(OpCase.of("div full/column", d -> shapes(m(d[0], d[1]), m(d[0], 1)), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        cases.add(OpCase.of("div scalar/row", d -> shapes(s(), v(d[1])), POS_LO, POS_HI, x -> Ops.div(x[0], x[1])));
        cases.add(OpCase.of("matmul NN", d -> shapes(m(d[0], d[2]), m(d[2], d[1])), LO, HI, x -> Ops.matmul(x[0], false, x[1], false)));
        cases.add(OpCase.of("matmul TN", d -> shapes(m(d[2], d[0]), m(d[2], d[1])), LO, HI, x -> Ops.matmul(x[0], true, x[1], false)));
        cases.add(OpCase.of("matmul NT", d -> shapes(m(d[0], d[2]), m(d[1], d[2])), LO, HI, x -> Ops.matmul(x[0], false, x[1], true)));
        cases.add(OpCase.of("matmul TT", d -> shapes(m(d[2], d[0]), m(d[1], d[2])), LO, HI, x -> Ops.matmul(x[0], true, x[1], true)));
        cases.add(OpCase.of("sum all of matrix", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.sum(x[0])));
        cases.add(OpCase.of("sum all of vector", d -> shapes(v(d[0])), LO, HI, x -> Ops.sum(x[0])));
        for (int axis = 0; axis <= 1; axis++) {
            for (boolean keep : new boolean[] {false, true}) {
                int a = axis;
                cases.add(OpCase.of("sum axis " + a + (keep ? " keepDims" : ""), d -> shapes(m(d[0], d[1])), LO, HI,
                        x -> Ops.sum(x[0], a, keep)));
                cases.add(OpCase.of("logSumExp axis " + a + (keep ? " keepDims" : ""), d -> shapes(m(d[0], d[1])), LO, HI,
                        x -> Ops.logSumExp(x[0], a, keep)));
            }
        }
        cases.add(OpCase.of("mean all", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0])));
        cases.add(OpCase.of("mean axis 0", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0], 0, false)));
        cases.add(OpCase.of("mean axis 1 keepDims", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.mean(x[0], 1, true)));
        for (double p : new double[] {2, 3, -1, 0.5, -1.5, 1.7}) {
            cases.add(OpCase.of("pow " + p, d -> shapes(m(d[0], d[1])), POS_LO, POS_HI, x -> Ops.pow(x[0], p)));
        }
        unary(cases, "exp", LO, HI, Ops::exp);
        unary(cases, "log", POS_LO, 3, Ops::log);
        unary(cases, "log1p", -0.5, HI, Ops::log1p);
        unary(cases, "sqrt", POS_LO, 3, Ops::sqrt);
        unary(cases, "softplus", -4, 4, Ops::softplus);
        unary(cases, "logSigmoid", -4, 4, Ops::logSigmoid);
        cases.add(OpCase.of("logSumExp all of matrix", d -> shapes(m(d[0], d[1])), -3, 3, x -> Ops.logSumExp(x[0])));
        cases.add(OpCase.of("logSumExp all of vector", d -> shapes(v(d[0])), -3, 3, x -> Ops.logSumExp(x[0])));
        softmaxes(cases, "softmax", Ops::softmax, Ops::softmax);
        softmaxes(cases, "logSoftmax", Ops::logSoftmax, Ops::logSoftmax);
        cases.add(new OpCase("gather rows (repeats)", d -> shapes(m(d[0], d[1])), LO, HI,
                (e, x) -> Ops.gather(x[0], e.picks())));
        cases.add(new OpCase("gather vector elements (repeats)", d -> shapes(v(d[0])), LO, HI,
                (e, x) -> Ops.gather(x[0], e.picks())));
        cases.add(new OpCase("sliceRows", d -> shapes(m(d[0], d[1])), LO, HI,
                (e, x) -> Ops.sliceRows(x[0], from(e), to(e))));
        cases.add(new OpCase("sliceCols of matrix", d -> shapes(m(d[1], d[0])), LO, HI,
                (e, x) -> Ops.sliceCols(x[0], from(e), to(e))));
        cases.add(new OpCase("sliceCols of vector", d -> shapes(v(d[0])), LO, HI,
                (e, x) -> Ops.sliceCols(x[0], from(e), to(e))));
        cases.add(OpCase.of("concatRows", d -> shapes(m(d[0], d[1]), v(d[1]), m(d[2], d[1])), LO, HI, Ops::concatRows));
        cases.add(OpCase.of("concatCols of matrices", d -> shapes(m(d[0], d[1]), m(d[0], d[2]), m(d[0], 1)), LO, HI, Ops::concatCols));
        cases.add(OpCase.of("concatCols of vectors", d -> shapes(v(d[0]), v(d[1])), LO, HI, Ops::concatCols));
        cases.add(OpCase.of("reshape matrix to vector", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.reshape(x[0], x[0].value().size())));
        cases.add(OpCase.of("reshape matrix to matrix", d -> shapes(m(d[0], d[1])), LO, HI,
                x -> Ops.reshape(x[0], x[0].value().dim(1), x[0].value().dim(0))));
        cases.add(OpCase.of("transpose", d -> shapes(m(d[0], d[1])), LO, HI, x -> Ops.transpose(x[0])));
        attention(cases);
        return List.copyOf(cases);
    }

    /**
     * The listwise-attention ops on two lists of d0 and d1 documents: the ragged softmax over rows
     * of d0, d1 and d2 values, scores, softmax and mix together (2 heads of d2 columns), and the
     * layer norm of the attention block.
     */
    private static void attention(List<OpCase> cases) {
        // eps 1e-2, not PyTorch's 1e-5: a generated row of nearly equal values would otherwise put
        // 1/sqrt(var + eps) where a central difference of step 1e-6 is no longer accurate.
        cases.add(OpCase.of("layerNorm d0 x (d1 + 2)", d -> shapes(m(d[0], d[1] + 2), v(d[1] + 2), v(d[1] + 2)), LO, HI,
                x -> Var.apply(new LayerNorm(1e-2), x[0], x[1], x[2])));
        cases.add(new OpCase("raggedSoftmax rows d0, d1, d2", d -> shapes(v(d[0] + d[1] + d[2])), -3, 3,
                (e, x) -> Var.apply(new RaggedSoftmax(new int[] {0, e.dims()[0], e.dims()[0] + e.dims()[1],
                    x[0].value().size()}), x[0])));
        cases.add(new OpCase("self-attention over lists of d0, d1", d -> shapes(m(d[0] + d[1], 2 * d[2]),
                m(d[0] + d[1], 2 * d[2]), m(d[0] + d[1], 2 * d[2])), LO, HI, (e, x) -> {
                    AttentionLayout layout = new AttentionLayout(new int[] {0, e.dims()[0], e.dims()[0] + e.dims()[1]}, 2);
                    Var s = Var.apply(new AttentionScores(layout, 1 / Math.sqrt(e.dims()[2])), x[0], x[1]);
                    return Var.apply(new AttentionMix(layout), Var.apply(new RaggedSoftmax(layout.rowStarts()), s), x[2]);
                }));
    }

    /** The broadcasting variants of a binary elementwise op. */
    private static void binary(List<OpCase> cases, String name, BinaryOperator<Var> op) {
        Function<Var[], Var> f = x -> op.apply(x[0], x[1]);
        cases.add(OpCase.of(name + " full+full", d -> shapes(m(d[0], d[1]), m(d[0], d[1])), LO, HI, f));
        cases.add(OpCase.of(name + " full+row vector", d -> shapes(m(d[0], d[1]), v(d[1])), LO, HI, f));
        cases.add(OpCase.of(name + " full+row matrix", d -> shapes(m(d[0], d[1]), m(1, d[1])), LO, HI, f));
        cases.add(OpCase.of(name + " full+column", d -> shapes(m(d[0], d[1]), m(d[0], 1)), LO, HI, f));
        cases.add(OpCase.of(name + " full+scalar", d -> shapes(m(d[0], d[1]), s()), LO, HI, f));
        cases.add(OpCase.of(name + " column+row", d -> shapes(m(d[0], 1), v(d[1])), LO, HI, f));
        cases.add(OpCase.of(name + " scalar+vector", d -> shapes(s(), v(d[1])), LO, HI, f));
        cases.add(OpCase.of(name + " vector+vector", d -> shapes(v(d[1]), v(d[1])), LO, HI, f));
    }

    private static void unary(List<OpCase> cases, String name, double lo, double hi, UnaryOperator<Var> op) {
        cases.add(OpCase.of(name, d -> shapes(m(d[0], d[1])), lo, hi, x -> op.apply(x[0])));
    }

    private static void softmaxes(List<OpCase> cases, String name, UnaryOperator<Var> lastAxis,
            BiFunction<Var, Integer, Var> byAxis) {
        cases.add(OpCase.of(name + " of vector", d -> shapes(v(d[0])), -3, 3, x -> lastAxis.apply(x[0])));
        cases.add(OpCase.of(name + " rows of matrix", d -> shapes(m(d[0], d[1])), -3, 3, x -> lastAxis.apply(x[0])));
        for (int axis = -1; axis <= 1; axis++) {
            int a = axis;
            cases.add(OpCase.of(name + " axis " + a, d -> shapes(m(d[0], d[1])), -3, 3, x -> byAxis.apply(x[0], a)));
        }
    }

    /** A slice [from, to) from the first two picks, both below d0: never empty, any position. */
    private static int from(OpExample e) {
        return Math.min(e.picks()[0], e.picks()[1]);
    }

    private static int to(OpExample e) {
        return Math.max(e.picks()[0], e.picks()[1]) + 1;
    }

    private static int[][] shapes(int[]... s) {
        return s;
    }

    private static int[] m(int rows, int cols) {
        return new int[] {rows, cols};
    }

    private static int[] v(int n) {
        return new int[] {n};
    }

    private static int[] s() {
        return new int[0];
    }
}
