package rankgrad.autodiff;

import rankgrad.simd.KernelProvider;

/**
 * Which kernels this JVM runs: the Panama Vector API implementation, or the scalar reference (the
 * module {@code jdk.incubator.vector} not readable, {@code -Drankgrad.kernels=scalar}, or too few
 * vector lanes). Applications use it to warn that training will be slow; choosing happens once, at
 * first use, and logs one line (logger {@code rankgrad.autodiff}).
 */
public final class KernelInfo {
    private KernelInfo() {
    }

    /** The chosen kernels' name: "scalar", or e.g. "vector(512-bit)". */
    public static String name() {
        return KernelProvider.kernels().name();
    }

    /** Whether the scalar reference kernels were chosen. */
    public static boolean isScalar() {
        return KernelProvider.kernels() == KernelProvider.scalar();
    }
}
