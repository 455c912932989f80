package rankgrad.autodiff.kernel;

import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationTargetException;

/**
 * Chooses the kernels once, at first use: the Panama Vector API implementation when the module
 * {@code jdk.incubator.vector} is readable, the scalar reference otherwise. One log line (logger
 * {@code rankgrad.autodiff}) says which and why.
 *
 * <p>System property {@code rankgrad.kernels}: {@code auto} (default), {@code scalar} (force the
 * scalar reference), {@code vector} (require the Vector API; fail if it is absent).
 */
public final class KernelProvider {
    private static final System.Logger LOG = System.getLogger("rankgrad.autodiff");

    private KernelProvider() {
    }

    /** The kernels chosen for this JVM. */
    public static Kernels kernels() {
        return Holder.INSTANCE;
    }

    /** The scalar reference kernels, always available. */
    public static Kernels scalar() {
        return ScalarKernels.INSTANCE;
    }

    private static final class Holder {
        static final Kernels INSTANCE = choose(System.getProperty("rankgrad.kernels", "auto"));
    }

    /** The kernels for a {@code rankgrad.kernels} mode, logging the choice; tests call it directly. */
    static Kernels choose(String mode) {
        if (mode.equals("scalar")) {
            LOG.log(Level.INFO, "rankgrad kernels: scalar (forced by -Drankgrad.kernels=scalar)");
            return ScalarKernels.INSTANCE;
        }
        if (!mode.equals("auto") && !mode.equals("vector")) {
            throw new IllegalArgumentException("-Drankgrad.kernels=" + mode + ": use auto, scalar or vector");
        }
        String why;
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            why = "module jdk.incubator.vector is not readable; pass --add-modules jdk.incubator.vector to enable SIMD";
        } else {
            try {
                Kernels vector = (Kernels) Class.forName("rankgrad.autodiff.kernel.VectorKernels")
                        .getDeclaredConstructor().newInstance();
                LOG.log(Level.INFO, "rankgrad kernels: " + vector.name() + " (Panama Vector API)");
                return vector;
            } catch (InvocationTargetException e) {
                // The constructor's own reason (too few lanes, a bad -Drankgrad.vector.bits), unwrapped.
                Throwable cause = e.getCause() instanceof ExceptionInInitializerError init && init.getCause() != null
                        ? init.getCause() : e.getCause();
                why = "Vector API kernels unavailable: " + cause.getMessage();
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = "Vector API kernels failed to load: " + e;
            }
        }
        if (mode.equals("vector")) {
            throw new IllegalStateException("-Drankgrad.kernels=vector but " + why);
        }
        LOG.log(Level.INFO, "rankgrad kernels: scalar (" + why + ")");
        return ScalarKernels.INSTANCE;
    }
}
