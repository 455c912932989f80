package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.testkit.NaiveReference;
import rankgrad.testkit.RankLaws;
import rankgrad.testkit.RankOperator;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;

class TwinSigmoidRankProperties {

    /** The forward ranks of a fresh operator: its tie-breaker is at call number 0. */
    private static RankOperator ranks(RankingCase c) {
        return (s, b) -> Var.apply(TwinSigmoidRanks.of(b, BackwardType.TYPE1, 1.0, TieBreak.seeded(c.seed())), s);
    }

    @Test
    void twinSigmoidRanksArePermutations() {
        qt().withExamples(200).forAll(RankingCases.anyScores(4, 40)).checkAssert(c -> {
            RankLaws.assertSortRanks(ranks(c), c, (q, m) -> TieBreak.keys(c.seed(), 0, q, m));
            for (DType dtype : new DType[] {DType.F32, DType.F64}) {
                Tensor r = TwinSigmoidRanks.of(c.batch(), BackwardType.TYPE1, 1.0, TieBreak.seeded(c.seed()))
                        .forward(c.tensor(dtype)).output();
                for (int q = 0; q < c.queries(); q++) {
                    int from = c.batch().start(q);
                    int m = c.batch().size(q);
                    int[] got = Arrays.stream(Arrays.copyOfRange(r.toDoubleArray(), from, from + m))
                            .mapToInt(v -> (int) v).toArray();
                    int[] p = TieBreak.permutation(c.seed(), 0, q, m);
                    assertArrayEquals(NaiveReference.twinSigmoidRanks(c.scoresOf(q), p), got,
                            dtype + " query " + q + ": pairwise Eq. 12 with ties by p");
                }
            }
        });
    }
}
