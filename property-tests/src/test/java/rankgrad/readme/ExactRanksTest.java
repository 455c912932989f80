package rankgrad.readme;

import static org.quicktheories.QuickTheory.qt;
import static rankgrad.testkit.RankLaws.assertSortRanks;
import static rankgrad.testkit.RankingCases.anyScores;
import static rankgrad.testkit.TieKeys.INPUT_ORDER;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;

class ExactRanksTest {
    /** Ranks within each query (1 = highest score, ties in input order); no gradient (null = zero). */
    static Var exactRanks(Var scores, QueryBatch batch) {
        return Var.apply(Op.of("exactRanks", in -> {
            Tensor ranks = Tensor.zerosLike(in[0]);
            for (int q = 0; q < batch.queries(); q++) {
                int[] r = Ranking.ranks(Ranking.order(in[0].toDoubleArray(), batch.start(q), batch.size(q), null));
                for (int i = 0; i < r.length; i++) {
                    ranks.set(batch.start(q) + i, r[i]);
                }
            }
            return Op.result(ranks, null);
        }, (saved, g, needs) -> new Tensor[] {null}), scores);
    }

    @Test
    void exactRanksAreSortRanks() {
        qt().forAll(anyScores(4, 40)).checkAssert(c -> assertSortRanks(ExactRanksTest::exactRanks, c, INPUT_ORDER));
    }
}
