package rankgrad.ltr.internal.pairwise;

import java.lang.invoke.MethodHandles;
import rankgrad.simd.internal.KernelSelection;

/**
 * Chooses the pair kernels once, at first use, by the rule the engine's {@code
 * rankgrad.simd.KernelProvider} uses: {@code VectorPairKernels} when the module {@code
 * jdk.incubator.vector} is readable and float vectors have at least 4 lanes, {@link
 * ScalarPairKernels} otherwise, with one {@code DEBUG} log line (logger {@code rankgrad.ltr}) saying which and
 * why. Both families share one species, so {@code -Drankgrad.vector.bits} narrows both.
 *
 * <p>The same system property selects both: {@code rankgrad.kernels} = {@code auto} (default),
 * {@code scalar} (force the scalar reference) or {@code vector} (fail if the Vector API is absent).
 */
public final class PairKernelProvider {
    private static final System.Logger LOG = System.getLogger("rankgrad.ltr");

    private PairKernelProvider() {
    }

    /** The pair kernels chosen for this JVM. */
    public static PairKernels kernels() {
        return Holder.INSTANCE;
    }

    /** The scalar reference kernels, always available. */
    public static PairKernels scalar() {
        return ScalarPairKernels.INSTANCE;
    }

    private static final class Holder {
        static final PairKernels INSTANCE = choose();
    }

    private static PairKernels choose() {
        return KernelSelection.choose(System.getProperty("rankgrad.kernels", "auto"), "pair kernels",
                MethodHandles.lookup(), PairKernels.class, "rankgrad.ltr.internal.pairwise.VectorPairKernels",
                ScalarPairKernels.INSTANCE, PairKernels::name, LOG);
    }
}
