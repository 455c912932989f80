/**
 * The kernels of nn's fused training nodes and of its optimizer: one interface, {@link
 * rankgrad.nn.kernels.NnKernels} (the five bias + batch norm + ReLU kernels of {@code
 * ops.AffineBatchNormRelu}, and Adam's step), with a scalar reference and a Panama Vector API
 * implementation chosen once by {@link rankgrad.nn.kernels.NnKernelProvider}, by the rule every
 * kernel family of rankgrad uses ({@code rankgrad.simd.internal.KernelSelection}).
 *
 * <p>These kernels are specific to nn's ops, so they live beside them rather than in {@code
 * rankgrad.simd.Kernels}, which keeps only general array kernels (docs/design.md §2, kernel
 * families). The vector implementation shares the SIMD idioms of {@code rankgrad.simd.internal}
 * (species, loop bounds), which the simd module exports to {@code rankgrad.nn} alone.
 *
 * <p>Not an API: the module {@code rankgrad.nn} does not export this package.
 */
package rankgrad.nn.kernels;
