/**
 * A small reverse-mode automatic differentiation engine.
 *
 * <p>{@link rankgrad.autodiff.Tensor} holds values (float32 or float64, rank 0 to 2, row-major);
 * {@link rankgrad.autodiff.Var} is a node of the define-by-run graph; {@link rankgrad.autodiff.Op}
 * is the one extension point, a custom-gradient node shaped like JAX {@code custom_vjp}: every
 * built-in op implements it, and so do the rank operators of {@code rankgrad.ltr}.
 * {@link rankgrad.autodiff.Ops} is the catalogue of built-in ops.
 *
 * <p>This package depends on the JDK only; SIMD kernels live behind
 * {@link rankgrad.simd.Kernels} and are chosen at start-up.
 */
package rankgrad.autodiff;
