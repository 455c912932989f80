package rankgrad.autodiff;

import java.util.Objects;
import java.util.function.Function;

/**
 * A custom-gradient node: the single extension point of the engine. Every built-in op and every
 * rank operator of {@code rankgrad.ltr} implements this interface; so can you.
 *
 * <p>Shaped like JAX {@code custom_vjp}: {@link #forward} computes the output from the input
 * values and may keep residuals (any object, never inspected by the engine) for the backward
 * pass; {@link #backward} receives those residuals and the gradient of the loss with respect to
 * the output, dL/dy, and returns the vector-Jacobian products dL/dx_i = (dy/dx_i)^T dL/dy, one per
 * input, in input order.
 *
 * <pre>{@code
 * Op<Void> roundStraightThrough = Op.of("roundStraightThrough",
 *         in -> {
 *             Tensor out = in[0].copy();
 *             for (int i = 0; i < out.size(); i++) {
 *                 out.set(i, Math.rint(out.get(i)));
 *             }
 *             return Op.result(out, null);
 *         },
 *         (saved, gradOut, needsGrad) -> new Tensor[] {gradOut});   // identity gradient
 * Var y = Var.apply(roundStraightThrough, x);
 * }</pre>
 * ({@code OpJavadocExampleTest} compiles and runs this example.)
 *
 * <p>Contract: forward must not modify its inputs; each returned gradient has the shape and dtype
 * of its input, or is {@code null} meaning zero (always allowed when {@code needsGrad[i]} is
 * false, so ops skip work nobody asked for). The engine may keep a returned gradient tensor by
 * reference but never writes to it.
 *
 * @param <R> the type of the residuals saved by forward for backward
 */
public interface Op<R> {

    /** What forward returns: the output value and the residuals backward will receive. */
    record Result<R>(Tensor output, R residuals) {
        public Result {
            Objects.requireNonNull(output, "forward returned no output");
        }
    }

    /** Computes the output; must not modify {@code inputs}. */
    Result<R> forward(Tensor... inputs);

    /**
     * Vector-Jacobian products, one per input (null = zero gradient).
     *
     * @param residuals what forward saved
     * @param gradOutput dL/d(output), same shape as the output
     * @param needsGrad which inputs need a gradient
     */
    default Tensor[] backward(R residuals, Tensor gradOutput, boolean[] needsGrad) {
        throw new UnsupportedOperationException("no gradient rule for " + name());
    }

    /** The op's name in error messages. */
    default String name() {
        return getClass().getSimpleName();
    }

    /** Shorthand for {@code new Result<>(output, residuals)}. */
    static <R> Result<R> result(Tensor output, R residuals) {
        return new Result<>(output, residuals);
    }

    /** The backward half of {@link #of}, as a lambda. */
    @FunctionalInterface
    interface Backward<R> {
        Tensor[] apply(R residuals, Tensor gradOutput, boolean[] needsGrad);
    }

    /** A one-off op from two lambdas, for nodes that do not deserve a class of their own. */
    static <R> Op<R> of(String name, Function<Tensor[], Result<R>> forward, Backward<R> backward) {
        Objects.requireNonNull(name);
        Objects.requireNonNull(forward);
        Objects.requireNonNull(backward);
        return new Op<>() {
            @Override
            public Result<R> forward(Tensor... inputs) {
                return forward.apply(inputs);
            }

            @Override
            public Tensor[] backward(R residuals, Tensor gradOutput, boolean[] needsGrad) {
                return backward.apply(residuals, gradOutput, needsGrad);
            }

            @Override
            public String name() {
                return name;
            }
        };
    }
}
