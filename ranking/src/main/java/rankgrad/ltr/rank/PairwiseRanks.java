package rankgrad.ltr.rank;

import java.math.BigDecimal;
import java.util.Objects;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * The {@link RankMode}s as {@link DifferentiableRanks}: forward and vector-Jacobian product are the
 * mode's {@link RankMode#ranks} and {@link RankMode#scoreGradient} on a pairwise backend, the same
 * calls the losses built on modes make, so a metric through these operators gives the bits of the
 * named loss (ndcg~twin3 those of ndcg-type3, ndcg~sigmoid:10 those of approx-ndcg).
 */
final class PairwiseRanks {
    private PairwiseRanks() {
    }

    /** The ranks of {@code mode} at {@code scores}, with its backward. */
    static DifferentiableRanks.Ranked ranked(RankMode mode, PairwiseBackend backend, Tensor scores, QueryBatch batch) {
        Tensor ranks = mode.ranks(backend, scores, batch);
        return new DifferentiableRanks.Ranked() {
            @Override
            public Tensor ranks() {
                return ranks;
            }

            @Override
            public Tensor vjp(Tensor rankGrad) {
                return mode.scoreGradient(backend, scores, batch, rankGrad);
            }
        };
    }

    /** A fixed mode, tie keys ignored. */
    record Fixed(RankMode mode, PairwiseBackend backend) implements DifferentiableRanks {
        Fixed {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(backend, "backend");
        }

        @Override
        public String name() {
            return "pairwise backend " + backend.name();
        }

        @Override
        public boolean exact() {
            return mode.exact();
        }

        @Override
        public Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys) {
            return ranked(mode, backend, scores, batch);
        }

        @Override
        public DifferentiableRanks withBackend(PairwiseBackend other) {
            return new Fixed(mode, other);
        }
    }

    /** Twin-sigmoid ranks with the call's tie keys. */
    record TwinSigmoid(BackwardType type, double alphaB, PairwiseBackend backend) implements DifferentiableRanks {
        /** Yu et al.'s backward steepness (Sec. 6.3). */
        static final double DEFAULT_ALPHA_B = 1.0;

        TwinSigmoid {
            Objects.requireNonNull(type, "type");
            Inputs.requirePositiveFinite("alpha_b", alphaB);
            Objects.requireNonNull(backend, "backend");
        }

        @Override
        public String name() {
            return "twin" + type.number() + (alphaB == DEFAULT_ALPHA_B ? "" : ":" + BigDecimal.valueOf(alphaB).stripTrailingZeros().toPlainString());
        }

        @Override
        public boolean exact() {
            return true;
        }

        @Override
        public Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys) {
            return ranked(new RankMode.TwinSigmoid(type, alphaB, tieKeys), backend, scores, batch);
        }

        @Override
        public DifferentiableRanks withBackend(PairwiseBackend other) {
            return new TwinSigmoid(type, alphaB, other);
        }
    }

    /** Approximate (sigmoid) ranks. */
    record Sigmoid(double alpha, PairwiseBackend backend) implements DifferentiableRanks {
        Sigmoid {
            Inputs.requirePositiveFinite("alpha", alpha);
            Objects.requireNonNull(backend, "backend");
        }

        @Override
        public String name() {
            return "sigmoid:" + BigDecimal.valueOf(alpha).stripTrailingZeros().toPlainString();
        }

        @Override
        public boolean exact() {
            return false;
        }

        @Override
        public Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys) {
            return ranked(new RankMode.Approximate(alpha), backend, scores, batch);
        }

        @Override
        public DifferentiableRanks withBackend(PairwiseBackend other) {
            return new Sigmoid(alpha, other);
        }
    }
}
