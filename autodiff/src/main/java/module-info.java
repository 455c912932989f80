/**
 * The reverse-mode autodiff engine: {@link rankgrad.autodiff.Tensor}, {@link rankgrad.autodiff.Var},
 * the custom-gradient node {@link rankgrad.autodiff.Op}, {@link rankgrad.autodiff.NoGrad}, the op
 * catalogue {@link rankgrad.autodiff.Ops} and {@link rankgrad.autodiff.GradientCheck}, on the JDK
 * alone.
 *
 * <p>The op classes ({@code rankgrad.autodiff.ops}) are reached through {@code Ops}; they are
 * exported only to {@code rankgrad.nn}, whose fused layers compute the same bits as the ops they
 * replace and so share their arithmetic (docs/design.md §2, fused nodes).
 */
// "module": the qualified export names a module built after this one.
@SuppressWarnings("module")
module rankgrad.autodiff {
    requires transitive rankgrad.simd;

    exports rankgrad.autodiff;

    exports rankgrad.autodiff.ops to rankgrad.nn;
}
