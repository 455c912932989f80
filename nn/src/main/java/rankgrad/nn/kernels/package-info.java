/**
 * The kernels of nn's fused training nodes, of its attention ops and of its optimizer: two
 * interfaces, {@link rankgrad.nn.kernels.NnKernels} (the five bias + batch norm + ReLU kernels of
 * {@code ops.AffineBatchNormRelu}, and Adam's step) and {@link rankgrad.nn.kernels.AttentionKernels}
 * (the scores, mix and softmax of {@code ops.AttentionScores}, {@code AttentionMix} and {@code
 * RaggedSoftmax}, forward and backward), each with a scalar reference and a Panama Vector API
 * implementation that gives the reference's bits, chosen once by {@link
 * rankgrad.nn.kernels.NnKernelProvider}, by the rule every kernel family of rankgrad uses ({@code
 * rankgrad.simd.internal.KernelSelection}).
 *
 * <p>These kernels are specific to nn's ops, so they live beside them rather than in {@code
 * rankgrad.simd.Kernels}, which keeps only general array kernels (docs/design.md §2, kernel
 * families). The vector implementations share the SIMD idioms of {@code rankgrad.simd.internal}
 * (species, loop bounds, the Vector API exp and its scalar twin), which the simd module exports to
 * {@code rankgrad.nn} alone.
 *
 * <p>Not an API: the module {@code rankgrad.nn} does not export this package.
 */
package rankgrad.nn.kernels;
