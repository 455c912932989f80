package rankgrad.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * The {@code --backend} option of train, compare and demo (a picocli mixin): which pairwise backend
 * does the O(m^2) work of the rank losses. It sets {@code -Drankgrad.pairwise}, the property
 * library users set themselves, so it must be applied before the command builds a loss.
 *
 * <p>It accepts {@code cpu}, {@code tornado} and {@code auto} (the TornadoVM names fall back to the
 * CPU when that module or its device is missing) and every other name a backend registered with
 * {@link java.util.ServiceLoader} reports, so a user's backend needs no change here.
 */
final class BackendOption {
    @Option(names = "--backend", paramLabel = "NAME", converter = Name.class, description = "pairwise backend of the rank losses:"
            + " cpu (default), tornado (a TornadoVM device: needs the rankgrad-tornado-tasks jar on the class path and"
            + " java @$TORNADOVM_HOME/tornado-argfile), auto (the device for large batches on a GPU, else cpu) or the"
            + " name of any backend registered on the class path; a missing runtime or device falls back to cpu")
    String backend;

    /** Selects the backend for the losses built after this call (nothing when the option is absent). */
    void apply() {
        if (backend != null) {
            System.setProperty("rankgrad.pairwise", backend);
        }
    }

    /** The names {@code --backend} accepts here: the fixed ones, then the registered ones. */
    static Set<String> accepted() {
        Set<String> names = new LinkedHashSet<>();
        names.add("cpu");
        names.add("tornado");
        names.add("auto");
        names.addAll(PairwiseBackends.names());
        return names;
    }

    /** Refuses a name no backend answers to, listing those that do. */
    static final class Name implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            Set<String> names = accepted();
            if (!names.contains(value)) {
                throw new TypeConversionException("expected one of " + String.join(", ", names) + " but was '" + value + "'");
            }
            return value;
        }
    }
}
