/**
 * The primitive differentiable ops, one small final class each, behind the catalogue
 * {@link rankgrad.autodiff.Ops}.
 *
 * <p>API: call them through {@code Ops}; the op classes are public so that a graph can name them
 * (e.g. {@code Relu.INSTANCE}), but their constructors and helpers (chunking, broadcasting,
 * segments) are internal.
 */
package rankgrad.autodiff.ops;
