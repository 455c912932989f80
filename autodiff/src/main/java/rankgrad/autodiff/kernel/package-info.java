/**
 * The engine's hot loops: the {@link rankgrad.autodiff.kernel.Kernels} interface, its scalar
 * reference {@link rankgrad.autodiff.kernel.ScalarKernels} and a Panama Vector API implementation
 * chosen once at start-up ({@link rankgrad.autodiff.kernel.KernelProvider},
 * {@link rankgrad.autodiff.kernel.KernelSelection}).
 *
 * <p>Internal: the ops and the pairwise kernels of {@code rankgrad.ltr} use it; applications go
 * through {@link rankgrad.autodiff.Ops} and select kernels with {@code -Drankgrad.kernels}.
 */
package rankgrad.autodiff.kernel;
