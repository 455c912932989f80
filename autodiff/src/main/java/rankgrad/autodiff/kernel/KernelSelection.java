package rankgrad.autodiff.kernel;

import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Function;

/**
 * The one rule that picks between a Vector API implementation and its scalar reference, shared by
 * every kernel family (the engine's {@link Kernels}, the ranking pair kernels of {@code ltr}):
 * the vector class is loaded reflectively, and only when the module {@code jdk.incubator.vector}
 * is readable, so code that never adds the module never links against it. One log line says which
 * was chosen and why.
 *
 * <p>Mode (system property {@code rankgrad.kernels}): {@code auto} (vector when possible),
 * {@code scalar} (force the reference), {@code vector} (fail if the Vector API is unusable).
 */
public final class KernelSelection {
    private KernelSelection() {
    }

    /**
     * The implementation for {@code mode}.
     *
     * @param what the family's name in the log line, e.g. "kernels" or "pair kernels"
     * @param vectorClass the fully qualified name of the public no-arg vector implementation
     * @param nameOf the implementation's own name, for the log line
     */
    public static <T> T choose(String mode, String what, Class<T> type, String vectorClass, T scalar,
            Function<T, String> nameOf, System.Logger log) {
        if (mode.equals("scalar")) {
            log.log(Level.INFO, "rankgrad " + what + ": scalar (forced by -Drankgrad.kernels=scalar)");
            return scalar;
        }
        if (!mode.equals("auto") && !mode.equals("vector")) {
            throw new IllegalArgumentException("-Drankgrad.kernels=" + mode + ": use auto, scalar or vector");
        }
        String why;
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            why = "module jdk.incubator.vector is not readable; pass --add-modules jdk.incubator.vector to enable SIMD";
        } else {
            try {
                T vector = type.cast(Class.forName(vectorClass).getDeclaredConstructor().newInstance());
                log.log(Level.INFO, "rankgrad " + what + ": " + nameOf.apply(vector) + " (Panama Vector API)");
                return vector;
            } catch (InvocationTargetException e) {
                // The constructor's own reason (too few lanes, a bad -Drankgrad.vector.bits), unwrapped.
                Throwable cause = e.getCause() instanceof ExceptionInInitializerError init && init.getCause() != null
                        ? init.getCause() : e.getCause();
                why = "Vector API " + what + " unavailable: " + cause.getMessage();
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = "Vector API " + what + " failed to load: " + e;
            }
        }
        if (mode.equals("vector")) {
            throw new IllegalStateException("-Drankgrad.kernels=vector but " + why);
        }
        log.log(Level.INFO, "rankgrad " + what + ": scalar (" + why + ")");
        return scalar;
    }
}
