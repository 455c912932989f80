package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.pairwise.BackwardType;

class TwinSigmoidRankProperties {

    @Test
    void twinSigmoidRanksArePermutations() {
        qt().withExamples(200).forAll(RankCases.anyScores(4, 40)).checkAssert(c -> {
            QueryBatch batch = c.batch();
            for (boolean f32 : new boolean[] {true, false}) {
                Tensor ranks = TwinSigmoidRanks.of(batch, BackwardType.TYPE1, 1.0, TieBreak.seeded(c.seed()))
                        .forward(c.tensor(f32)).output();
                for (int q = 0; q < c.queries(); q++) {
                    double[] s = c.scores()[q];
                    int m = s.length;
                    int[] got = new int[m];
                    for (int i = 0; i < m; i++) {
                        double r = ranks.get(batch.start(q) + i);
                        got[i] = (int) r;
                        assertEquals(got[i], r, 0.0, "rank is an integer");
                    }
                    int[] sorted = got.clone();
                    Arrays.sort(sorted);
                    for (int p = 0; p < m; p++) {
                        assertEquals(p + 1, sorted[p], "ranks of query " + q + " are a permutation of 1..m");
                    }
                    // First call of the tie-breaker: call number 0.
                    int[] p = TieBreak.permutation(c.seed(), 0, q, m);
                    assertArrayEquals(NaiveReference.twinSigmoidRanks(s, p), got, "pairwise Eq. 12 with ties by p");
                    int[] keys = TieBreak.keys(c.seed(), 0, q, m);
                    assertArrayEquals(Ranking.ranks(Ranking.order(s, 0, m, keys)), got, "sort-based ranks, same ties");
                }
            }
        });
    }
}
