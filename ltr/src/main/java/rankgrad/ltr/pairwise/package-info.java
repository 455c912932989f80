/**
 * The pairwise engine of the rank operators: the {@link rankgrad.ltr.pairwise.PairwiseBackend}
 * interface (forward ranks and backward gradient sums for a ragged batch), its CPU
 * implementation on fused per-row {@link rankgrad.ltr.pairwise.PairKernels} (Vector API with a
 * scalar reference), and the selection of a backend by name with the CPU as fallback.
 */
package rankgrad.ltr.pairwise;
