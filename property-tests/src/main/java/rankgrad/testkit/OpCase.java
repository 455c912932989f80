package rankgrad.testkit;

import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.function.Function;
import org.quicktheories.core.Gen;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * An op under test, described so that random inputs can be generated for it: how its input shapes
 * follow from three sampled dimensions d0, d1, d2 (each 1..{@value #MAX_DIM}), the interval its
 * input values are drawn from (choose one away from kinks and singularities: a central difference
 * of step h straddling a kink is wrong by O(1)), and the function of {@link Var}s that applies it.
 *
 * <pre>{@code
 * // y = myOp(X) for X of shape (d0, d1), values in [-2, 2]
 * OpCase mine = OpCase.of("myOp", d -> new int[][] {{d[0], d[1]}}, -2, 2, x -> Var.apply(MY_OP, x[0]));
 * qt().forAll(mine.examples(), longs().all())
 *         .checkAssert((e, seed) -> GradientLaws.assertBackwardMatchesCentralDifference(mine, e, seed, 1e-6));
 * }</pre>
 *
 * @param name shown in failures and as a parameterized test's display name
 * @param shapes input shapes from the dimensions {d0, d1, d2}
 * @param lo lower end of the input values
 * @param hi upper end of the input values
 * @param body applies the op; may read the example's dims and picks
 */
public record OpCase(String name, Function<int[], int[][]> shapes, double lo, double hi, Body body) {

    /** The largest sampled dimension: small shapes keep each example cheap and a failure readable. */
    public static final int MAX_DIM = 7;

    /** The op applied to the inputs of one example. */
    @FunctionalInterface
    public interface Body {
        /** The op's output for inputs {@code x} (one Var per input shape) of example {@code e}. */
        Var apply(OpExample e, Var[] x);
    }

    /** A case whose body reads only the input Vars. */
    public static OpCase of(String name, Function<int[], int[][]> shapes, double lo, double hi, Function<Var[], Var> f) {
        return new OpCase(name, shapes, lo, hi, (e, x) -> f.apply(x));
    }

    /**
     * Examples with shrinking: every number is drawn from QuickTheories' randomness source, so a
     * failure shrinks towards small dimensions, small indices and simple values, and is printed
     * with this case's name.
     */
    public Gen<OpExample> examples() {
        Gen<Integer> dim = integers().between(1, MAX_DIM);
        Gen<Double> value = doubles().between(lo, hi);
        Gen<OpExample> gen = rs -> {
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
            return new OpExample(dims, picks, inputs);
        };
        return gen.describedAs(e -> name + ": " + e);
    }

    @Override
    public String toString() {
        return name;
    }
}
