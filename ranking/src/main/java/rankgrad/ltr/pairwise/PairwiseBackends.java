package rankgrad.ltr.pairwise;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import rankgrad.ltr.internal.pairwise.CpuPairwiseBackend;
import rankgrad.ltr.internal.pairwise.PairKernelProvider;

/**
 * Selects the {@link PairwiseBackend}: by name from the system property {@code rankgrad.pairwise}
 * (default {@code cpu}; the CLI flag sets the same property), looked up among the implementations
 * registered with {@link ServiceLoader} (a TornadoVM module registers one). Whenever the named
 * backend is missing, fails to load, or reports {@link PairwiseBackend#isAvailable()} false (no
 * runtime, no device), the CPU backend is used and one log line (logger {@code rankgrad.ltr})
 * says why. The name {@code auto} is a backend that offloads only where that pays (TornadoVM
 * registers one); where none is registered or it has no device, {@code auto} is the CPU backend
 * and the log line is informational, not a warning.
 */
public final class PairwiseBackends {
    private static final System.Logger LOG = System.getLogger("rankgrad.ltr");

    private PairwiseBackends() {
    }

    /** The backend named by {@code -Drankgrad.pairwise} (default "cpu"), chosen once. */
    public static PairwiseBackend selected() {
        return Holder.INSTANCE;
    }

    /** The CPU backend on this JVM's pair kernels. */
    public static PairwiseBackend cpu() {
        return CpuHolder.INSTANCE;
    }

    /**
     * The CPU backend on the scalar pair kernels: the reference every backend is checked against,
     * and the float64 default of {@link PairwiseBackend}.
     */
    public static PairwiseBackend reference() {
        return ReferenceHolder.INSTANCE;
    }

    /** The backend called {@code name} if registered and available here, else the CPU backend (logged). */
    public static PairwiseBackend byName(String name) {
        if (name.equalsIgnoreCase("cpu")) {
            return cpu();
        }
        Level missing = name.equalsIgnoreCase("auto") ? Level.INFO : Level.WARNING;
        List<String> seen = new ArrayList<>();
        Iterator<PairwiseBackend> it = ServiceLoader.load(PairwiseBackend.class).iterator();
        while (true) {
            PairwiseBackend candidate;
            try {
                if (!it.hasNext()) {
                    break;
                }
                candidate = it.next();
            } catch (ServiceConfigurationError | LinkageError e) {
                // A backend whose runtime is not on the class path fails here; the others still count.
                seen.add("one failed to load: " + e.getMessage());
                continue;
            }
            seen.add(candidate.name());
            if (candidate.name().equalsIgnoreCase(name)) {
                if (candidate.isAvailable()) {
                    LOG.log(Level.INFO, "rankgrad pairwise backend: " + candidate.name());
                    return candidate;
                }
                LOG.log(missing, "rankgrad pairwise backend '" + name
                        + "' is registered but has no runtime or device here; using cpu");
                return cpu();
            }
        }
        LOG.log(missing, "rankgrad pairwise backend '" + name + "' not found (registered: "
                + (seen.isEmpty() ? "none" : String.join(", ", seen))
                + "; add its module to the class path); using cpu");
        return cpu();
    }

    private static final class Holder {
        static final PairwiseBackend INSTANCE = byName(System.getProperty("rankgrad.pairwise", "cpu"));
    }

    private static final class ReferenceHolder {
        static final PairwiseBackend INSTANCE = CpuPairwiseBackend.withKernels(PairKernelProvider.scalar());
    }

    private static final class CpuHolder {
        static final PairwiseBackend INSTANCE = CpuPairwiseBackend.create();
    }
}
