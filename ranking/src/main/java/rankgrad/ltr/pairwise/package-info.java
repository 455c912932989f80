/**
 * The pairwise engine of the rank operators, as an extension point: the {@link
 * rankgrad.ltr.pairwise.PairwiseBackend} interface (forward ranks and backward gradient sums for a
 * ragged batch), its {@link rankgrad.ltr.pairwise.BackwardType}s, and the selection of a backend by
 * name with the CPU backend as fallback ({@link rankgrad.ltr.pairwise.PairwiseBackends}). The CPU
 * backend itself and its fused per-row pair kernels (Vector API with a scalar reference) live in
 * the internal package {@code rankgrad.ltr.internal.pairwise}, which the module does not export.
 */
package rankgrad.ltr.pairwise;
