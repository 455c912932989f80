package rankgrad.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --backend} option of train, compare and demo (a picocli mixin): which pairwise backend
 * does the O(m^2) work of the rank losses. It sets {@code -Drankgrad.pairwise}, the property
 * library users set themselves, so it must be applied before the command builds a loss.
 */
final class BackendOption {
    /** The backends the option accepts. */
    enum Choice {
        /** The CPU backend (Vector API), always present. */
        cpu,
        /** Every batch on the TornadoVM device. */
        tornado,
        /** The TornadoVM device for large batches on a GPU, else the CPU. */
        auto
    }

    @Option(names = "--backend", paramLabel = "cpu|tornado|auto", description = "pairwise backend of the rank losses:"
            + " cpu (default), tornado (a TornadoVM device: needs the rankgrad-tornado-tasks jar on the class path and"
            + " java @$TORNADOVM_HOME/tornado-argfile) or auto (the device for large batches on a GPU, else cpu);"
            + " a missing runtime or device falls back to cpu")
    Choice backend;

    /** Selects the backend for the losses built after this call (nothing when the option is absent). */
    void apply() {
        if (backend != null) {
            System.setProperty("rankgrad.pairwise", backend.name());
        }
    }
}
