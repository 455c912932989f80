/**
 * The ranking math on the autodiff engine: query data and feature transforms ({@code
 * rankgrad.ltr.data}), exact metrics, rank operators, every loss and its registry, and the
 * pairwise backend API with the CPU backend, on the JDK alone.
 *
 * <p>Its API exposes autodiff types ({@code Tensor}, {@code Var}), hence {@code requires
 * transitive}. {@code jdk.incubator.vector} is optional: without it the pair kernels run their
 * scalar reference. Every pairwise backend, the CPU one included, is found with {@link
 * java.util.ServiceLoader}; others implement {@link rankgrad.ltr.pairwise.PairwiseBackend} in
 * their own module or jar. Not exported: the CPU backend and its pair kernels ({@code
 * rankgrad.ltr.internal.pairwise}).
 */
module rankgrad.ranking {
    requires transitive rankgrad.autodiff;
    requires static jdk.incubator.vector;

    exports rankgrad.ltr;
    exports rankgrad.ltr.data;
    exports rankgrad.ltr.loss;
    exports rankgrad.ltr.metric;
    exports rankgrad.ltr.pairwise;
    exports rankgrad.ltr.rank;
    exports rankgrad.ltr.repro;

    uses rankgrad.ltr.pairwise.PairwiseBackend;
    provides rankgrad.ltr.pairwise.PairwiseBackend with
            rankgrad.ltr.internal.pairwise.CpuPairwiseBackend,
            rankgrad.ltr.internal.pairwise.CpuPairwiseBackend.Reference;
}
