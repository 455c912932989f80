package rankgrad.properties;

import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.function.Function;
import org.quicktheories.core.Gen;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * One op under test: how its input shapes follow from three sampled dimensions d0, d1, d2 (each
 * 1..7), the interval its input values are drawn from (chosen to stay away from kinks and
 * singularities), and the function of Vars that applies it.
 *
 * @param name shown as the test's display name
 * @param shapes input shapes from the dimensions {d0, d1, d2}
 * @param lo lower end of the input values
 * @param hi upper end of the input values
 * @param body applies the op; may read the example's dims and picks
 */
record OpCase(String name, Function<int[], int[][]> shapes, double lo, double hi, Body body) {

    /** The op applied to the inputs of one example. */
    @FunctionalInterface
    interface Body {
        Var apply(Example e, Var[] x);
    }

    static final int MAX_DIM = 7;

    /**
     * Examples with shrinking: every number is drawn from QuickTheories' randomness source, so a
     * failure shrinks towards small dimensions, small indices and simple values.
     */
    Gen<Example> examples() {
        Gen<Integer> dim = integers().between(1, MAX_DIM);
        Gen<Double> value = doubles().between(lo, hi);
        Gen<Example> gen = rs -> {
            int[] dims = {dim.generate(rs), dim.generate(rs), dim.generate(rs)};
            Gen<Integer> pick = integers().between(0, dims[0] - 1);
            int[] picks = new int[dims[2] + 1];
            for (int i = 0; i < picks.length; i++) {
                picks[i] = pick.generate(rs);
            }
            int[][] s = shapes.apply(dims);
            Tensor[] inputs = new Tensor[s.length];
            for (int i = 0; i < s.length; i++) {
                int n = 1;
                for (int d : s[i]) {
                    n *= d;
                }
                double[] v = new double[n];
                for (int k = 0; k < n; k++) {
                    v[k] = value.generate(rs);
                }
                inputs[i] = Tensor.of(v, s[i]);
            }
            return new Example(dims, picks, inputs);
        };
        return gen.describedAs(e -> name + ": " + e);
    }

    @Override
    public String toString() {
        return name;
    }
}
