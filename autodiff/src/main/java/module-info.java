/**
 * The reverse-mode autodiff engine: {@link rankgrad.autodiff.Tensor}, {@link rankgrad.autodiff.Var},
 * the custom-gradient node {@link rankgrad.autodiff.Op}, {@link rankgrad.autodiff.NoGrad}, the op
 * catalogue {@link rankgrad.autodiff.Ops} and {@link rankgrad.autodiff.GradientCheck}, on the JDK
 * alone.
 *
 * <p>The op classes ({@code rankgrad.autodiff.ops}) are package-private and reached through {@code
 * Ops}. The package's one public class, {@code Primitives} (the op instances {@code Ops} applies),
 * is exported to {@code rankgrad.nn} alone: its {@code Linear} layer needs the affine node with
 * the input gradient in the network's workspace (docs/design.md §2, the workspace).
 */
// "module": the qualified export names a module built after this one.
@SuppressWarnings("module")
module rankgrad.autodiff {
    requires transitive rankgrad.simd;

    exports rankgrad.autodiff;

    exports rankgrad.autodiff.ops to rankgrad.nn;
}
