package rankgrad.simd;

import java.lang.invoke.MethodHandles;
import rankgrad.simd.internal.KernelSelection;

/**
 * Chooses the kernels once, at first use: the Panama Vector API implementation when the module
 * {@code jdk.incubator.vector} is readable, the scalar reference otherwise. One {@code DEBUG} log line
 * (logger {@code rankgrad.autodiff}) says which and why.
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
        return KernelSelection.choose(mode, "kernels", MethodHandles.lookup(), Kernels.class,
                "rankgrad.simd.VectorKernels", ScalarKernels.INSTANCE, Kernels::name, LOG);
    }
}
