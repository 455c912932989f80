package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quicktheories.QuickTheory.qt;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.ListwiseContext;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.RankingModel;
import rankgrad.testkit.ListwiseLaws.ListCase;
import rankgrad.testkit.ListwiseLaws.ListScorer;

/**
 * The attn model obeys the listwise laws (masking: no list reads another list or the empty lists
 * between them; permutation equivariance within a list), and the laws catch scorers that break them.
 */
class ListwiseLawsTest {
    private static final int FEATURES = 5;
    /**
     * Permuted lists sum attention weights in another order: float32 sums of a few dozen terms of
     * order 1 move by a few ulps (1e-7 each), far below what a position-dependent scorer changes.
     */
    private static final double PERMUTATION_TOL = 1e-4;

    private static ListScorer scorerOf(RankingModel model) {
        model.eval();
        return (rows, features, offsets) -> {
            try (NoGrad ignored = NoGrad.enter()) {
                return model.forward(Tensor.of(rows, offsets[offsets.length - 1], features), offsets).value()
                        .toDoubleArray();
            }
        };
    }

    private static final ListScorer ATTN = scorerOf(RankingModel.create("attn.h2.w8", FEATURES, new Normalization.None(), 3));
    private static final ListScorer ATTN_RESIDUAL = scorerOf(RankingModel.create("attn.h4.w8.res", FEATURES,
            new Normalization.None(), 4));

    @Test
    void attentionScoresOfAListDoNotDependOnOtherListsOrEmptyLists() {
        // bit-identical (tolerance 0): a list's rows go through the same loops whatever surrounds them
        qt().withExamples(60).forAll(ListwiseLaws.cases(4, 9, FEATURES))
                .checkAssert(c -> ListwiseLaws.assertListsAreIndependent(ATTN, c, 0.0));
        qt().withExamples(30).forAll(ListwiseLaws.cases(4, 9, FEATURES))
                .checkAssert(c -> ListwiseLaws.assertListsAreIndependent(ATTN_RESIDUAL, c, 0.0));
    }

    @Test
    void permutingAListsDocumentsPermutesItsScores() {
        qt().withExamples(60).forAll(ListwiseLaws.cases(3, 9, FEATURES))
                .checkAssert(c -> ListwiseLaws.assertPermutationEquivariant(ATTN, c, PERMUTATION_TOL));
        qt().withExamples(30).forAll(ListwiseLaws.cases(3, 9, FEATURES))
                .checkAssert(c -> ListwiseLaws.assertPermutationEquivariant(ATTN_RESIDUAL, c, PERMUTATION_TOL));
    }

    /** Two lists of three documents, list 0 reversed. */
    private static ListCase twoLists() {
        float[] rows = new float[6 * FEATURES];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = (i * 7 % 11) / 8f - 0.5f;
        }
        return new ListCase(rows, FEATURES, new int[] {0, 3, 6}, new int[] {2, 1, 0});
    }

    @Test
    void attentionAcrossTheWholeBatchBreaksIndependence() {
        ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(FEATURES, 1,
                ListwiseContext.Combine.LATENT_CROSS, rankgrad.autodiff.DType.F32, 2));
        ListScorer leaky = (rows, features, offsets) -> ctx.forward(Var.constant(Tensor.of(rows,
                offsets[offsets.length - 1], features))).value().toDoubleArray();
        assertThrows(AssertionError.class, () -> ListwiseLaws.assertListsAreIndependent(leaky, twoLists(), 0.0));
    }

    @Test
    void aPositionDependentScorerBreaksEquivariance() {
        ListScorer positional = (rows, features, offsets) -> {
            double[] base = ATTN.score(rows, features, offsets);
            for (int i = 0; i < base.length; i++) {
                base[i] += 0.01 * i;
            }
            return base;
        };
        assertThrows(AssertionError.class,
                () -> ListwiseLaws.assertPermutationEquivariant(positional, twoLists(), PERMUTATION_TOL));
    }
}
