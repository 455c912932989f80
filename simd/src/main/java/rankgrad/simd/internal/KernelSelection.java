package rankgrad.simd.internal;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Function;

/**
 * The one rule that picks between a Vector API implementation and its scalar reference, shared by
 * every kernel family (the engine's kernels, nn's kernels, the ranking pair kernels of {@code
 * rankgrad.ltr}):
 * the vector class is loaded reflectively, and only when the module {@code jdk.incubator.vector}
 * is readable, so code that never adds the module never links against it. One log line at
 * {@code DEBUG} says which was chosen and why: the choice changes speed, not results beyond float
 * rounding, so an application's log stays quiet unless it asks (the CLI's {@code --verbose} does).
 *
 * <p>The vector class is found and constructed through the caller's {@link MethodHandles.Lookup}
 * (Lucene's {@code VectorizationProvider} does the same): it may then be package-private, and no
 * package has to be exported for it, whichever module it lives in.
 *
 * <p>Mode (system property {@code rankgrad.kernels}): {@code auto} (vector when possible),
 * {@code scalar} (force the reference), {@code vector} (fail if the Vector API is unusable).
 *
 * <p>Internal: this package is meant to be exported only to rankgrad's own modules.
 */
public final class KernelSelection {
    private KernelSelection() {
    }

    /**
     * The implementation for {@code mode}.
     *
     * @param what the family's name in the log line, e.g. "kernels" or "pair kernels"
     * @param lookup a lookup of the caller's class ({@code MethodHandles.lookup()}), with access to
     *     the vector class and its no-argument constructor
     * @param vectorClass the fully qualified name of the vector implementation
     * @param nameOf the implementation's own name, for the log line
     */
    public static <T> T choose(String mode, String what, MethodHandles.Lookup lookup, Class<T> type,
            String vectorClass, T scalar, Function<T, String> nameOf, System.Logger log) {
        if (mode.equals("scalar")) {
            log.log(Level.DEBUG, "rankgrad " + what + ": scalar (forced by -Drankgrad.kernels=scalar)");
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
                T vector = type.cast(construct(lookup, vectorClass));
                log.log(Level.DEBUG, "rankgrad " + what + ": " + nameOf.apply(vector) + " (Panama Vector API)");
                return vector;
            } catch (UnsupportedOperationException e) {
                // The constructor's own reason: too few lanes.
                why = "Vector API " + what + " unavailable: " + e.getMessage();
            } catch (ExceptionInInitializerError e) {
                // A static initializer's reason, e.g. a bad -Drankgrad.vector.bits, unwrapped.
                why = "Vector API " + what + " unavailable: "
                        + (e.getCause() != null ? e.getCause().getMessage() : e.toString());
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = "Vector API " + what + " failed to load: " + e;
            }
        }
        if (mode.equals("vector")) {
            throw new IllegalStateException("-Drankgrad.kernels=vector but " + why);
        }
        log.log(Level.DEBUG, "rankgrad " + what + ": scalar (" + why + ")");
        return scalar;
    }

    private static Object construct(MethodHandles.Lookup lookup, String className) throws ReflectiveOperationException {
        MethodHandle constructor = lookup.findConstructor(lookup.findClass(className), MethodType.methodType(void.class));
        try {
            return constructor.invoke();
        } catch (RuntimeException | Error | ReflectiveOperationException e) {
            throw e;
        } catch (Throwable e) {
            // A no-argument constructor declares no checked exception; javac cannot know that here.
            throw new IllegalStateException("constructor of " + className + " threw " + e, e);
        }
    }
}
