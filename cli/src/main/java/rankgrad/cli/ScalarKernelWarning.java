package rankgrad.cli;

import java.io.PrintWriter;
import java.util.Optional;
import rankgrad.autodiff.KernelInfo;

/**
 * The warning a training command prints to stderr when the JVM runs the scalar reference kernels:
 * a log line is easy to miss, and training then takes several times longer (docs/performance.md,
 * "Without the Vector API", has the measured cost). Says why and how to get the SIMD kernels.
 */
final class ScalarKernelWarning {
    private ScalarKernelWarning() {
    }

    /** Prints the warning to {@code err} when this JVM's kernels are the scalar ones. */
    static void printIfScalar(PrintWriter err) {
        message(KernelInfo.isScalar(), ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                System.getProperty("rankgrad.kernels", "auto")).ifPresent(m -> {
                    err.println(m);
                    err.flush();
                });
    }

    /**
     * The warning for a JVM whose kernels are {@code scalar} or not, with the Vector API module
     * readable or not, under the {@code rankgrad.kernels} mode; empty on the vector kernels.
     */
    static Optional<String> message(boolean scalar, boolean vectorModuleReadable, String mode) {
        if (!scalar) {
            return Optional.empty();
        }
        String why;
        String fix;
        if (mode.equals("scalar")) {
            why = "forced by -Drankgrad.kernels=scalar";
            fix = "drop -Drankgrad.kernels=scalar";
        } else if (!vectorModuleReadable) {
            why = "the module jdk.incubator.vector is not readable";
            fix = "start Java with --add-modules jdk.incubator.vector (./rankgrad does)";
        } else {
            why = "the Vector API is unusable on this JVM or CPU (the log line of logger rankgrad.autodiff says why)";
            fix = "use a JDK 21+ on a CPU with 128-bit or wider vectors";
        }
        return Optional.of("WARNING: training on the scalar kernels, many times slower than the SIMD ones (a training"
                + " step about 16x, the rank losses 3-21x): " + why + "; " + fix + ".");
    }
}
