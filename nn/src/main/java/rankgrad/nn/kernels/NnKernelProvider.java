package rankgrad.nn.kernels;

import java.lang.invoke.MethodHandles;
import rankgrad.simd.internal.KernelSelection;

/**
 * Chooses nn's kernel families once each, at first use, by the rule of the engine's {@code
 * rankgrad.simd.KernelProvider} ({@code KernelSelection}): {@code VectorNnKernels} and {@code
 * VectorAttentionKernels} when the module {@code jdk.incubator.vector} is readable and float vectors
 * have at least 4 lanes, {@link ScalarNnKernels} and {@link ScalarAttentionKernels} otherwise, with
 * one {@code DEBUG} log line per family (logger {@code rankgrad.nn}) saying which and why.
 * The same system property selects every kernel family: {@code rankgrad.kernels} = {@code auto}
 * (default), {@code scalar} or {@code vector} (fail if the Vector API is absent).
 */
public final class NnKernelProvider {
    private static final System.Logger LOG = System.getLogger("rankgrad.nn");

    private NnKernelProvider() {
    }

    /** The kernels chosen for this JVM. */
    public static NnKernels kernels() {
        return Holder.INSTANCE;
    }

    /** The scalar reference kernels, always available. */
    public static NnKernels scalar() {
        return ScalarNnKernels.INSTANCE;
    }

    /** The attention kernels chosen for this JVM. */
    public static AttentionKernels attention() {
        return AttentionHolder.INSTANCE;
    }

    /** The scalar reference attention kernels, always available. */
    public static AttentionKernels scalarAttention() {
        return ScalarAttentionKernels.INSTANCE;
    }

    private static final class Holder {
        static final NnKernels INSTANCE = choose();
    }

    private static final class AttentionHolder {
        static final AttentionKernels INSTANCE = KernelSelection.choose(System.getProperty("rankgrad.kernels", "auto"),
                "attention kernels", MethodHandles.lookup(), AttentionKernels.class,
                "rankgrad.nn.kernels.VectorAttentionKernels", ScalarAttentionKernels.INSTANCE, AttentionKernels::name, LOG);
    }

    private static NnKernels choose() {
        return KernelSelection.choose(System.getProperty("rankgrad.kernels", "auto"), "nn kernels",
                MethodHandles.lookup(), NnKernels.class, "rankgrad.nn.kernels.VectorNnKernels",
                ScalarNnKernels.INSTANCE, NnKernels::name, LOG);
    }
}
