package rankgrad.ltr.pairwise;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Selects the {@link PairwiseBackend}: by name from the system property {@code rankgrad.pairwise}
 * (default {@code cpu}; the CLI flag sets the same property), looked up among the implementations
 * registered with {@link ServiceLoader} (a TornadoVM module registers one). Whenever the named
 * backend is missing, fails to load, or reports {@link PairwiseBackend#isAvailable()} false (no
 * runtime, no device), the CPU backend is used and one log line (logger {@code rankgrad.ltr})
 * says why. The name {@code auto} is a backend that offloads only where that pays (TornadoVM
 * registers one); where none is registered or it has no device, {@code auto} is the CPU backend
 * and the log line is informational, not a warning.
 *
 * <p>Every backend is found the same way, the CPU ones included: rankgrad-ranking registers
 * {@code cpu} and {@code reference} (the CPU backend on the scalar pair kernels) in its module
 * descriptor and in {@code META-INF/services}, so this class imports no implementation.
 */
public final class PairwiseBackends {
    private static final System.Logger LOG = System.getLogger("rankgrad.ltr");
    /** Where rankgrad-ranking's own (CPU) backends live; named, not imported: it is not API. */
    private static final String BUILT_IN_PACKAGE = "rankgrad.ltr.internal.pairwise";

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

    /** The names of the backends registered here, in {@link ServiceLoader} order (for help texts). */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (PairwiseBackend b : registered(new ArrayList<>())) {
            names.add(b.name());
        }
        return names;
    }

    /** The backend called {@code name} if registered and available here, else the CPU backend (logged). */
    public static PairwiseBackend byName(String name) {
        if (name.equalsIgnoreCase("cpu")) {
            return cpu();
        }
        Level missing = name.equalsIgnoreCase("auto") ? Level.INFO : Level.WARNING;
        List<String> seen = new ArrayList<>();
        for (PairwiseBackend candidate : registered(seen)) {
            seen.add(candidate.name());
            if (candidate.name().equalsIgnoreCase(name)) {
                if (candidate.isAvailable()) {
                    LOG.log(Level.DEBUG, "rankgrad pairwise backend: " + candidate.name());
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

    /**
     * Every backend that loads, in {@link ServiceLoader} order; one that fails to load (its runtime
     * is not on the class path) is skipped and described in {@code failures}.
     */
    private static List<PairwiseBackend> registered(List<String> failures) {
        List<PairwiseBackend> found = new ArrayList<>();
        Iterator<PairwiseBackend> it = ServiceLoader.load(PairwiseBackend.class).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    return found;
                }
                found.add(it.next());
            } catch (ServiceConfigurationError | LinkageError e) {
                failures.add("one failed to load: " + e.getMessage());
            }
        }
    }

    /**
     * The CPU backend registered as {@code name} by rankgrad-ranking itself. Only providers of its
     * own package are instantiated: another backend's constructor may ask for {@link #cpu()}, which
     * must not wait on, or recurse into, every other provider.
     */
    private static PairwiseBackend builtIn(String name) {
        return ServiceLoader.load(PairwiseBackend.class).stream()
                .filter(p -> p.type().getPackageName().equals(BUILT_IN_PACKAGE))
                .map(ServiceLoader.Provider::get)
                .filter(b -> b.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no pairwise backend '" + name + "' is registered:"
                        + " rankgrad-ranking's META-INF/services/" + PairwiseBackend.class.getName()
                        + " is missing (a shaded jar must merge service files)"));
    }

    private static final class Holder {
        static final PairwiseBackend INSTANCE = byName(System.getProperty("rankgrad.pairwise", "cpu"));
    }

    private static final class ReferenceHolder {
        static final PairwiseBackend INSTANCE = builtIn("reference");
    }

    private static final class CpuHolder {
        static final PairwiseBackend INSTANCE = builtIn("cpu");
    }
}
