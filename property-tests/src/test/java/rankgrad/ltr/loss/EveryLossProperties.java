package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.testkit.RankingCases;
import rankgrad.ltr.loss.LossFamily.Property;

/**
 * Laws of every loss of the registry ({@link Losses#families()}), checked on generated ragged
 * batches: a new row of the registry is covered without touching this class. Laws that only some
 * losses obey are checked for the families that declare them ({@link LossFamily.Property}).
 */
class EveryLossProperties {
    /**
     * Finite-difference step: far below the 1/16 score spacing, so no rank, position or hinge side
     * changes along a coordinate or a unit direction.
     */
    private static final double H = 1e-5;
    /**
     * Central differences with step 1e-5 err by h^2/6 |L'''| (below 2e-7 here: steepness at most
     * 10, at most 7 documents per query) plus rounding eps |L| / h (about 3e-10 for |L| &lt;= 30);
     * 1e-6 absolute plus 1e-6 relative still catches any wrong sign or factor, which errs by the size
     * of the gradient itself.
     */
    private static final double FD_TOLERANCE = 1e-6;
    /**
     * Laws that hold exactly in real arithmetic and differ only by the rounding of a different
     * summation order or of s + c (values of order 1 to 30, at most 28 terms per query).
     */
    private static final double ROUNDING = 1e-12;
    /** A run and a step at which REG-SHF-SDCG weighs both of its terms (tau = 1/2). */
    private static final long RUN = 20;

    static Stream<Named<LossFamily>> families() {
        return Losses.families().stream().map(f -> Named.of(f.example(), f));
    }

    /** The family's example as the trainer uses it in the middle of a run, made afresh so seeded draws replay. */
    private static RankingLoss make(LossFamily family) {
        return Losses.parse(family.example(), 5).forRun(RUN).atStep(RUN / 2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void backwardEqualsCentralDifferencesOfTheValue(LossFamily family) {
        assumeTrue(family.has(Property.GRADIENT_OF_VALUE), "its backward is not the gradient of its value");
        // Distinct scores: positions (LambdaRank) and hinge sides (SHF-SDCG) are locally constant.
        qt().withExamples(40).forAll(RankingCases.distinctScores(3, 7)).checkAssert(c -> GradientCheck.withDefaults()
                .withStep(H).check(x -> make(family).loss(x[0], c.batch()), Tensor.vector(c.scores()))
                .assertWithin(FD_TOLERANCE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void shiftingAQuerysScoresChangesNothing(LossFamily family) {
        assumeTrue(family.has(Property.SHIFT_INVARIANT), "it is not shift-invariant");
        qt().withExamples(40).forAll(RankingCases.tiedScores(4, 8), integers().between(-40, 40)).checkAssert((c, shift) -> {
            double[] shifted = c.scores().clone();
            QueryBatch b = c.batch();
            for (int q = 0; q < b.queries(); q++) {
                // A different multiple of 1/4 per query: exact on the 1/16 grid, so ties are kept.
                double constant = shift * (q + 1) / 4.0;
                for (int i = b.start(q); i < b.start(q) + b.size(q); i++) {
                    shifted[i] += constant;
                }
            }
            Evaluated before = evaluate(make(family), b, c.scores(), DType.F64);
            Evaluated after = evaluate(make(family), b, shifted, DType.F64);
            assertEquals(before.value(), after.value(), ROUNDING * (1 + Math.abs(before.value())), "on" + c);
            assertArrayEquals(before.grad(), after.grad(), ROUNDING, "on" + c);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void permutingDocumentsPermutesTheGradient(LossFamily family) {
        assumeTrue(family.has(Property.PERMUTATION_EQUIVARIANT), "its relaxation depends on the input order");
        // Distinct scores and distinct labels within each query: no random tie-break is drawn (twin
        // sigmoid and LambdaRank break score ties, ListMLE and the annealed SHF-SDCG label ties), so
        // every loss must be equivariant.
        qt().withExamples(40).forAll(RankingCases.distinctScores(4, 5), integers().all()).checkAssert((c, seed) -> {
            QueryBatch b = withDistinctLabels(c.batch(), seed);
            int[] perm = permutationWithinQueries(b, seed);
            float[] labels = new float[b.documents()];
            double[] scores = new double[b.documents()];
            for (int i = 0; i < perm.length; i++) {
                labels[i] = b.labels()[perm[i]];
                scores[i] = c.scores()[perm[i]];
            }
            Evaluated original = evaluate(make(family), b, c.scores(), DType.F64);
            Evaluated moved = evaluate(make(family), new QueryBatch(b.offsets(), labels), scores, DType.F64);
            assertEquals(original.value(), moved.value(), ROUNDING * (1 + Math.abs(original.value())), "on" + c);
            for (int i = 0; i < perm.length; i++) {
                assertEquals(original.grad()[perm[i]], moved.grad()[i], ROUNDING, "document " + i + " on" + c);
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void oneThreadEqualsTwoThreadsBitForBit(LossFamily family) {
        int before = Parallel.threads();
        try {
            qt().withExamples(20).forAll(RankingCases.tiedScores(6, 10)).checkAssert(c -> {
                for (DType dtype : DType.values()) {
                    Parallel.setThreads(1);
                    Evaluated one = evaluate(make(family), c.batch(), c.scores(), dtype);
                    Parallel.setThreads(2);
                    Evaluated two = evaluate(make(family), c.batch(), c.scores(), dtype);
                    // Bit-identical: every partition depends on the batch only.
                    assertEquals(Double.doubleToRawLongBits(one.value()), Double.doubleToRawLongBits(two.value()),
                            dtype + " on" + c);
                    assertArrayEquals(one.grad(), two.grad(), dtype + " on" + c);
                }
            });
        } finally {
            Parallel.setThreads(before);
        }
    }

    /** The batch with each query's labels replaced by distinct grades 0, 1, ... in a seeded order. */
    private static QueryBatch withDistinctLabels(QueryBatch b, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        float[] labels = new float[b.documents()];
        for (int q = 0; q < b.queries(); q++) {
            int m = b.size(q);
            for (int i = 0; i < m; i++) {
                labels[b.start(q) + i] = i;
            }
            for (int i = m - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                float t = labels[b.start(q) + i];
                labels[b.start(q) + i] = labels[b.start(q) + j];
                labels[b.start(q) + j] = t;
            }
        }
        return new QueryBatch(b.offsets(), labels);
    }

    private static int[] permutationWithinQueries(QueryBatch b, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] perm = new int[b.documents()];
        for (int q = 0; q < b.queries(); q++) {
            int from = b.start(q);
            int m = b.size(q);
            for (int i = 0; i < m; i++) {
                perm[from + i] = from + i;
            }
            for (int i = m - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = perm[from + i];
                perm[from + i] = perm[from + j];
                perm[from + j] = t;
            }
        }
        return perm;
    }

    private record Evaluated(double value, double[] grad) {
    }

    private static Evaluated evaluate(RankingLoss loss, QueryBatch batch, double[] scores, DType dtype) {
        Var s = Var.param(Tensor.vector(scores).to(dtype));
        Var l = loss.loss(s, batch);
        l.backward();
        return new Evaluated(l.value().item(), s.grad().toDoubleArray());
    }
}
