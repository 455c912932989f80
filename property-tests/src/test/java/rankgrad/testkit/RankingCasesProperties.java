package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/** The generators draw what their Javadoc promises, and draw the hard cases often enough to matter. */
class RankingCasesProperties {
    private static final int MAX_QUERIES = 4;
    private static final int MAX_DOCS = 12;

    private static List<Gen<RankingCase>> all() {
        return List.of(RankingCases.distinctScores(MAX_QUERIES, MAX_DOCS), RankingCases.tiedScores(MAX_QUERIES, MAX_DOCS),
                RankingCases.gridScores(MAX_QUERIES, MAX_DOCS), RankingCases.moderateScores(MAX_QUERIES, MAX_DOCS, 3.0),
                RankingCases.anyScores(MAX_QUERIES, MAX_DOCS));
    }

    @Test
    void casesAreRaggedBatchesOfFiniteFloat32ScoresAndGrades() {
        for (Gen<RankingCase> gen : all()) {
            qt().withExamples(200).forAll(gen).checkAssert(c -> {
                assertTrue(c.queries() >= 1 && c.queries() <= MAX_QUERIES, c::toString);
                for (int q = 0; q < c.queries(); q++) {
                    assertTrue(c.batch().size(q) <= MAX_DOCS, c::toString);
                }
                for (int i = 0; i < c.documents(); i++) {
                    double s = c.scores()[i];
                    assertTrue(Double.isFinite(s) && (double) (float) s == s, () -> "score " + s + " of " + c);
                    float y = c.batch().labels()[i];
                    assertTrue(y == Math.rint(y) && y >= 0 && y <= 4, () -> "label " + y + " of " + c);
                }
            });
        }
    }

    @Test
    void distinctScoresAreAtLeastASixteenthApart() {
        qt().withExamples(200).forAll(RankingCases.distinctScores(MAX_QUERIES, MAX_DOCS)).checkAssert(c -> {
            for (int q = 0; q < c.queries(); q++) {
                double[] s = c.scoresOf(q);
                for (int i = 0; i < s.length; i++) {
                    for (int j = i + 1; j < s.length; j++) {
                        assertTrue(Math.abs(s[i] - s[j]) >= 1.0 / 16, c::toString);
                    }
                }
            }
        });
    }

    /** How many of 300 cases of {@code gen} have a query whose scores and labels pass both tests. */
    private static int count(Gen<RankingCase> gen, Predicate<double[]> scores, Predicate<float[]> labels) {
        List<RankingCase> drawn = new ArrayList<>();
        qt().withExamples(300).forAll(gen).checkAssert(drawn::add);
        int n = 0;
        for (RankingCase c : drawn) {
            boolean any = false;
            for (int q = 0; q < c.queries(); q++) {
                any |= scores.test(c.scoresOf(q)) && labels.test(c.labelsOf(q));
            }
            n += any ? 1 : 0;
        }
        return n;
    }

    private static boolean hasSignedZeroTie(double[] s) {
        boolean plus = false;
        boolean minus = false;
        for (double v : s) {
            plus |= Double.doubleToRawLongBits(v) == 0L;
            minus |= Double.doubleToRawLongBits(v) == Long.MIN_VALUE;
        }
        return plus && minus;
    }

    private static boolean noneRelevant(float[] y) {
        for (float v : y) {
            if (v > 0) {
                return false;
            }
        }
        return y.length > 0;
    }

    @Test
    void hardCasesAreCommon() {
        // At least one case in ten: enough that 100 examples of a property meet each one.
        int tenth = 30;
        Gen<RankingCase> tied = RankingCases.tiedScores(MAX_QUERIES, MAX_DOCS);
        assertTrue(count(tied, RankingCasesProperties::hasSignedZeroTie, y -> true) >= tenth, "-0.0 tied with +0.0");
        assertTrue(count(tied, s -> s.length == 0, y -> true) >= tenth, "empty queries");
        assertTrue(count(tied, s -> true, RankingCasesProperties::noneRelevant) >= tenth, "queries without relevant documents");
        Gen<RankingCase> any = RankingCases.anyScores(MAX_QUERIES, MAX_DOCS);
        assertTrue(count(any, s -> Arrays.stream(s).anyMatch(v -> v != 0 && Math.abs(v) < Float.MIN_NORMAL),
                y -> true) >= tenth, "subnormal scores");
        assertTrue(count(any, s -> Arrays.stream(s).anyMatch(v -> Math.abs(v) == Float.MAX_VALUE), y -> true)
                >= tenth / 3, "+-MAX_VALUE");
    }

    @Test
    void directionsAreUnitVectors() {
        qt().withExamples(200).forAll(integers().between(0, 30).flatMap(Directions::unit)).checkAssert(d -> {
            double norm2 = 0;
            for (double v : d) {
                norm2 += v * v;
            }
            // A sum of at most 30 squares of normalised components: a few ulps of 1.
            assertEquals(d.length == 0 ? 0 : 1, norm2, 1e-14, () -> Arrays.toString(d));
        });
    }
}
