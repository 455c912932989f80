package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Var;
import rankgrad.testkit.GradientLaws;
import rankgrad.testkit.RankLaws;
import rankgrad.testkit.RankOperator;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;
import rankgrad.testkit.TieKeys;

/** Laws of the soft ranks and soft sorts of Blondel et al. 2020 ({@link SoftRank}, {@link SoftSort}). */
class SoftRankProperties {
    /**
     * Strengths for the gradient law: not simple multiples of the 1/16 score grid, so that no two
     * isotonic blocks have exactly equal values (the kinks of these piecewise-smooth maps), and
     * from ranks that pool little to ranks that pool a lot.
     */
    private static final double[] SMOOTH_EPS = {0.37, 1.9, 13.1};

    private static RankOperator softRank(Regularization reg, double eps) {
        return (s, b) -> SoftRank.of(b, reg, eps).apply(s);
    }

    private static RankOperator softSort(Regularization reg, double eps) {
        return (s, b) -> SoftSort.of(b, reg, eps).apply(s);
    }

    @Test
    void softRanksLieInThePermutahedronAndKeepTheScoresOrder() {
        // Any float scores, signed zeros and the float range's ends included. Float32 output rounds
        // each rank (at most 40) at 6e-8 relative, so sums err by 40 x 40 x 6e-8 < 1e-4 = 1e-6 (1 + 820).
        qt().withExamples(150).forAll(RankingCases.anyScores(4, 40), integers().between(0, 5)).checkAssert((c, k) -> {
            Regularization reg = Regularization.values()[k % 2];
            double eps = new double[] {0.01, 1, 100}[k / 2];
            RankLaws.assertPermutahedronRanks(softRank(reg, eps), c, 1e-6);
        });
    }

    @Test
    void belowTheSmallestScoreGapSoftRanksAreTheExactRanks() {
        // distinctScores are >= 1/16 apart: at eps = 1e-3, z = -s / eps are >= 62.5 apart, more than
        // the unit steps of rho, so no block pools and r = rho exactly (quadratic), exp(log rho) within
        // an ulp (entropic, hence the rounding before the exact law).
        qt().withExamples(100).forAll(RankingCases.distinctScores(4, 30), integers().between(0, 1)).checkAssert((c, k) -> {
            Regularization reg = Regularization.values()[k];
            double[] r = ranks(c, reg, 1e-3);
            if (reg == Regularization.QUADRATIC) {
                RankLaws.assertSortRanks(r, c, TieKeys.INPUT_ORDER);
            } else {
                double[] rounded = new double[r.length];
                for (int i = 0; i < r.length; i++) {
                    rounded[i] = Math.rint(r[i]);
                    // exp(log(m - p)) is within a few ulps of m - p <= 30.
                    assertEquals(rounded[i], r[i], 1e-13, "document " + i + " of " + c);
                }
                RankLaws.assertSortRanks(rounded, c, TieKeys.INPUT_ORDER);
            }
        });
    }

    @Test
    void softRanksAndSortsBackwardMatchesCentralDifference() {
        // Quadratic ranks and sorts are piecewise linear in the scores (central differences exact up
        // to rounding, ~1e-10 here), entropic ones smooth within a piece with |third derivatives|
        // below m^3 / eps^3 ~ 1e3 at eps 0.37 (truncation 1e-12 / 6 x 1e3); a wrong block, sign or
        // 1/eps errs by a gradient entry, 0.05 or more.
        qt().withExamples(60).forAll(RankingCases.distinctScores(3, 8), integers().between(0, 11)).checkAssert((c, k) -> {
            Regularization reg = Regularization.values()[k % 2];
            double eps = SMOOTH_EPS[(k / 2) % 3];
            RankOperator op = k < 6 ? softRank(reg, eps) : softSort(reg, eps);
            GradientLaws.assertBackwardMatchesCentralDifference(op, c, 1e-6);
        });
    }

    @Test
    void softRanksAreEquivariantBitForBit() {
        // Tied scores pool into one block, and the sorted values, hence every sum, do not depend on
        // the input order: the same bits, ties and signed zeros included.
        qt().withExamples(150).forAll(RankingCases.tiedScores(4, 12), integers().between(0, 5)).checkAssert((c, k) -> {
            Regularization reg = Regularization.values()[k % 2];
            double eps = new double[] {0.1, 1, 10}[k / 2];
            RankLaws.assertPermutationEquivariant(softRank(reg, eps), c, 0);
        });
    }

    @Test
    void softSortIsInvariantToTheInputOrder() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 12), integers().between(0, 1)).checkAssert((c, k) -> {
            Regularization reg = Regularization.values()[k];
            double[] before = sorted(c, reg);
            double[] reversed = new double[c.documents()];
            for (int q = 0; q < c.queries(); q++) {
                int from = c.batch().start(q);
                int m = c.batch().size(q);
                for (int i = 0; i < m; i++) {
                    reversed[from + i] = c.scores()[from + m - 1 - i];
                }
            }
            double[] after = sorted(c.withScores(reversed), reg);
            for (int i = 0; i < before.length; i++) {
                assertEquals(before[i], after[i], 0.0, "position " + i + " of " + c);
            }
        });
    }

    @Test
    void largeStrengthsPullEveryRankToTheMiddle() {
        // At eps = 1e6 every score of [-1, 1] is within 2e-6 of the others in z: one block, r = (m + 1) / 2.
        qt().withExamples(50).forAll(RankingCases.tiedScores(4, 20), integers().between(0, 1)).checkAssert((c, k) -> {
            double[] r = ranks(c, Regularization.values()[k], 1e6);
            for (int q = 0; q < c.queries(); q++) {
                int m = c.batch().size(q);
                for (int i = c.batch().start(q); i < c.batch().start(q) + m; i++) {
                    // Deviations z_i - mean(z) <= 2e-6 (quadratic), or their exponentials (entropic).
                    assertEquals((m + 1) / 2.0, r[i], 1e-4, "query " + q + " of " + c);
                }
            }
        });
    }

    private static double[] ranks(RankingCase c, Regularization reg, double eps) {
        try (NoGrad ignored = NoGrad.enter()) {
            return SoftRank.of(c.batch(), reg, eps).apply(Var.constant(c.tensor(DType.F64))).value().toDoubleArray();
        }
    }

    private static double[] sorted(RankingCase c, Regularization reg) {
        try (NoGrad ignored = NoGrad.enter()) {
            return SoftSort.of(c.batch(), reg, 0.5).apply(Var.constant(c.tensor(DType.F64))).value().toDoubleArray();
        }
    }
}
