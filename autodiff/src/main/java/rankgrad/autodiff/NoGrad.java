package rankgrad.autodiff;

/**
 * A scope in which no graph is recorded: ops compute values only, as for evaluation.
 *
 * <pre>{@code
 * try (NoGrad ignored = NoGrad.enter()) {
 *     Tensor scores = model.forward(x).value();
 * }
 * }</pre>
 *
 * <p>Thread-confined: the scope applies to the thread that entered it. Scopes nest.
 */
public final class NoGrad implements AutoCloseable {
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private boolean closed;

    private NoGrad() {
        DEPTH.get()[0]++;
    }

    /** Enters a no-grad scope; close it (try-with-resources) to leave. */
    public static NoGrad enter() {
        return new NoGrad();
    }

    /** Whether the current thread is inside a no-grad scope. */
    public static boolean active() {
        return DEPTH.get()[0] > 0;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            DEPTH.get()[0]--;
        }
    }
}
