/**
 * Learning to rank on the autodiff engine: query data, rank operators, losses, metrics, models,
 * training and evaluation, on the JDK alone.
 *
 * <p>Its API exposes autodiff types ({@code Tensor}, {@code Var}, {@code Mlp}, optimizers), hence
 * {@code requires transitive}. {@code jdk.incubator.vector} is optional, as in {@code
 * rankgrad.autodiff}: without it the pair kernels run their scalar reference. Pairwise backends
 * other than the CPU one are found with {@link java.util.ServiceLoader} ({@code uses}); they
 * implement {@link rankgrad.ltr.pairwise.PairwiseBackend} from their own module or jar. Not
 * exported: the CPU backend and its pair kernels ({@code rankgrad.ltr.internal.pairwise}) and the
 * file plumbing ({@code rankgrad.ltr.io}).
 */
module rankgrad.ltr {
    requires transitive rankgrad.autodiff;
    requires static jdk.incubator.vector;

    exports rankgrad.ltr;
    exports rankgrad.ltr.data;
    exports rankgrad.ltr.eval;
    exports rankgrad.ltr.loss;
    exports rankgrad.ltr.metric;
    exports rankgrad.ltr.model;
    exports rankgrad.ltr.pairwise;
    exports rankgrad.ltr.rank;
    exports rankgrad.ltr.repro;
    exports rankgrad.ltr.train;

    uses rankgrad.ltr.pairwise.PairwiseBackend;
}
