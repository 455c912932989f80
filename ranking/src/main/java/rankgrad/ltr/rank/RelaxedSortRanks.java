package rankgrad.ltr.rank;

import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * A relaxed sort's soft ranks as a {@link DifferentiableRanks}: r_j = sum_i (i + 1) P_ij / sum_i
 * P_ij per query ({@link RelaxedSort#expectedRanks}), with its exact vector-Jacobian product
 * ({@link RelaxedSort#expectedRanksGradient}). Queries run one after another; neither result
 * depends on the number of threads. Tie keys are not read: tied scores get equal soft ranks.
 */
record RelaxedSortRanks(RelaxedSort sort) implements DifferentiableRanks {

    @Override
    public String name() {
        return sort.name();
    }

    @Override
    public boolean exact() {
        return false;
    }

    @Override
    public Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys) {
        double[] s = scores.toDoubleArray();
        double[] r = new double[s.length];
        for (int q = 0; q < batch.queries(); q++) {
            System.arraycopy(sort.expectedRanks(s, batch.start(q), batch.size(q)), 0, r, batch.start(q), batch.size(q));
        }
        return new Ranked() {
            @Override
            public Tensor ranks() {
                return Tensor.of(r, scores.shape()).to(scores.dtype());
            }

            @Override
            public Tensor vjp(Tensor rankGrad) {
                double[] g = rankGrad.toDoubleArray();
                double[] out = new double[s.length];
                for (int q = 0; q < batch.queries(); q++) {
                    System.arraycopy(sort.expectedRanksGradient(s, batch.start(q), batch.size(q), g), 0, out,
                            batch.start(q), batch.size(q));
                }
                return Tensor.of(out, scores.shape()).to(scores.dtype());
            }
        };
    }
}
