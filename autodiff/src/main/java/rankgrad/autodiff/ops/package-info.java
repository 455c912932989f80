/**
 * The primitive differentiable ops, one small final class each, behind the catalogue
 * {@link rankgrad.autodiff.Ops}.
 *
 * <p>Not an API: the op classes and their helpers (chunking, broadcasting, segments) are
 * package-private; {@link rankgrad.autodiff.ops.Primitives}, the one public class, hands {@code
 * Ops} the op instances. The module exports this package to {@code rankgrad.nn} alone, for the
 * affine node with its input gradient in a workspace ({@code Primitives.affine(Workspace)}).
 */
package rankgrad.autodiff.ops;
