/**
 * The CPU pairwise backend ({@link rankgrad.ltr.internal.pairwise.CpuPairwiseBackend}) on fused
 * per-row {@link rankgrad.ltr.internal.pairwise.PairKernels}: a Panama Vector API implementation
 * chosen at start-up with its scalar reference {@link
 * rankgrad.ltr.internal.pairwise.ScalarPairKernels} as fallback ({@link
 * rankgrad.ltr.internal.pairwise.PairKernelProvider}), and the split of a ragged batch into
 * deterministic tasks ({@link rankgrad.ltr.internal.pairwise.WorkPartition}).
 *
 * <p>Not an API: the module {@code rankgrad.ltr} does not export this package. Applications reach
 * the CPU backend through {@link rankgrad.ltr.pairwise.PairwiseBackends#cpu()} and plug in others
 * through {@link rankgrad.ltr.pairwise.PairwiseBackend}.
 */
package rankgrad.ltr.internal.pairwise;
