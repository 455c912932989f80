/**
 * The engine's hot loops: the {@link rankgrad.simd.Kernels} interface, its scalar
 * reference {@link rankgrad.simd.ScalarKernels} and a Panama Vector API implementation
 * chosen once at start-up ({@link rankgrad.simd.KernelProvider}, with the rule of
 * {@link rankgrad.simd.internal.KernelSelection}).
 *
 * <p>Internal: the ops and optimizers of this module use it; the module {@code rankgrad.autodiff}
 * does not export it. Applications go through {@link rankgrad.autodiff.Ops} and select kernels
 * with {@code -Drankgrad.kernels}.
 */
package rankgrad.simd;
