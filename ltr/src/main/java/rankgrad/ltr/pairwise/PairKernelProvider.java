package rankgrad.ltr.pairwise;

import java.lang.System.Logger.Level;

/**
 * Chooses the pair kernels once, at first use, by the rule the engine's {@code
 * rankgrad.autodiff.kernel.KernelProvider} uses: {@code VectorPairKernels} when the module {@code
 * jdk.incubator.vector} is readable, {@link ScalarPairKernels} otherwise, with one log line
 * (logger {@code rankgrad.ltr}) saying which and why.
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
        String mode = System.getProperty("rankgrad.kernels", "auto");
        if (mode.equals("scalar")) {
            LOG.log(Level.INFO, "rankgrad pair kernels: scalar (forced by -Drankgrad.kernels=scalar)");
            return ScalarPairKernels.INSTANCE;
        }
        if (!mode.equals("auto") && !mode.equals("vector")) {
            throw new IllegalArgumentException("-Drankgrad.kernels=" + mode + ": use auto, scalar or vector");
        }
        String why;
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            why = "module jdk.incubator.vector is not readable; pass --add-modules jdk.incubator.vector to enable SIMD";
        } else {
            try {
                PairKernels vector = (PairKernels) Class.forName("rankgrad.ltr.pairwise.VectorPairKernels")
                        .getDeclaredConstructor().newInstance();
                LOG.log(Level.INFO, "rankgrad pair kernels: " + vector.name() + " (Panama Vector API)");
                return vector;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                why = "Vector API pair kernels failed to load: " + e;
            }
        }
        if (mode.equals("vector")) {
            throw new IllegalStateException("-Drankgrad.kernels=vector but " + why);
        }
        LOG.log(Level.INFO, "rankgrad pair kernels: scalar (" + why + ")");
        return ScalarPairKernels.INSTANCE;
    }
}
