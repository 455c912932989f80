package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.function.IntBinaryOperator;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;

/** The rank laws accept sort ranks and reject the mistakes a rank operator makes. */
class RankLawsTest {

    /**
     * Sort ranks with a twist: {@code rankOf.applyAsInt(r, m)} maps the sort rank r of a query of m
     * documents; query q's ranks are written from its start or (a bug) from 0; ties are broken in
     * input order or reversed.
     */
    private static RankOperator ranks(IntBinaryOperator rankOf, boolean offsetByQuery, boolean reverseTies) {
        return (scores, batch) -> Var.apply(Op.of("ranks", in -> {
            Tensor out = Tensor.zerosLike(in[0]);
            double[] s = in[0].toDoubleArray();
            for (int q = 0; q < batch.queries(); q++) {
                int m = batch.size(q);
                int[] keys = new int[m];
                for (int i = 0; i < m; i++) {
                    keys[i] = reverseTies ? m - 1 - i : i;
                }
                int[] r = Ranking.ranks(Ranking.order(s, batch.start(q), m, keys));
                for (int i = 0; i < m; i++) {
                    out.set((offsetByQuery ? batch.start(q) : 0) + i, rankOf.applyAsInt(r[i], m));
                }
            }
            return Op.result(out, null);
        }, (saved, g, needs) -> new Tensor[] {null}), scores);
    }

    private static final RankOperator SORT_RANKS = ranks((r, m) -> r, true, false);

    /** The report of the sort law (or, for null tie keys, the exact-rank law) failing on {@code op}. */
    private static String failure(RankOperator op, TieKeys ties) {
        return assertThrows(AssertionError.class, () -> qt().withExamples(200).forAll(RankingCases.anyScores(4, 20))
                .checkAssert(c -> {
                    if (ties == null) {
                        RankLaws.assertExactRanks(op, c);
                    } else {
                        RankLaws.assertSortRanks(op, c, ties);
                    }
                })).getMessage();
    }

    @Test
    void sortRanksSatisfyBothLaws() {
        qt().withExamples(200).forAll(RankingCases.anyScores(4, 40)).checkAssert(c -> {
            RankLaws.assertExactRanks(SORT_RANKS, c);
            RankLaws.assertSortRanks(SORT_RANKS, c, TieKeys.INPUT_ORDER);
        });
    }

    @Test
    void rejectsRanksWrittenAtTheWrongOffset() {
        String report = failure(ranks((r, m) -> r, false, false), TieKeys.INPUT_ORDER);
        assertTrue(report.contains("is not an integer in 1.."), report);
        assertTrue(report.contains("Seed was"), report);
    }

    @Test
    void rejectsRanksThatRiseWithTheScore() {
        // Found by the exact-rank law, which accepts any tie-break: the shrunk case has two distinct scores.
        String report = failure(ranks((r, m) -> m + 1 - r, true, false), null);
        assertTrue(report.contains("above document"), report);
    }

    @Test
    void rejectsRanksThatAreNotAPermutation() {
        String report = failure(ranks((r, m) -> Math.max(1, r - 1), true, false), TieKeys.INPUT_ORDER);
        assertTrue(report.contains("not a permutation"), report);
    }

    @Test
    void tieBreakMattersOnlyToTheSortLaw() {
        RankOperator reversedTies = ranks((r, m) -> r, true, true);
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 20)).checkAssert(c -> {
            RankLaws.assertExactRanks(reversedTies, c);
            RankLaws.assertSortRanks(reversedTies, c, (q, m) -> {
                int[] keys = new int[m];
                for (int i = 0; i < m; i++) {
                    keys[i] = m - 1 - i;
                }
                return keys;
            });
        });
        String report = failure(reversedTies, TieKeys.INPUT_ORDER);
        assertTrue(report.contains("differ from the sort ranks"), report);
    }

    @Test
    void signedZerosTie() {
        // -0.0 above +0.0 is a tie, not a violation of the score order, whatever the tie-break.
        RankingCase c = new RankingCase(QueryBatch.of(new float[] {1, 0}), new double[] {0.0, -0.0}, 0);
        RankLaws.assertExactRanks(new double[] {2, 1}, c);
        RankLaws.assertExactRanks(new double[] {1, 2}, c);
    }
}
