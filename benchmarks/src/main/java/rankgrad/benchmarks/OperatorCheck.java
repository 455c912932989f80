package rankgrad.benchmarks;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * Writes {@link OperatorBenchmark}'s data and rankgrad's float64 values and gradients, so that the
 * references check theirs on the very same input before they are timed:
 *
 * <pre>
 * java --add-modules jdk.incubator.vector -cp benchmarks/target/benchmarks.jar rankgrad.benchmarks.OperatorCheck DIR M OP...
 * </pre>
 *
 * DIR/data-M.txt: "queries m", then per query one line of grades, one of the float32 scores and one
 * of the cotangent (shortest decimal that reads back as the same float). DIR/rankgrad-M.txt: per
 * OP a line "OP value", then a line of the float64 gradient (17 significant digits).
 */
public final class OperatorCheck {
    private OperatorCheck() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: OperatorCheck DIR M OP...");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int m = Integer.parseInt(args[1]);
        Files.createDirectories(dir);
        StringWriter data = new StringWriter();
        StringWriter values = new StringWriter();
        try (PrintWriter d = new PrintWriter(data); PrintWriter v = new PrintWriter(values)) {
            for (int i = 2; i < args.length; i++) {
                OperatorCase c = new OperatorCase(args[i], m);
                if (i == 2) {
                    writeData(d, c, m);
                }
                float[] s = c.scores();
                double[] wide = new double[s.length];
                for (int j = 0; j < s.length; j++) {
                    wide[j] = s[j];
                }
                Tensor[] out = c.valueAndGradient(Tensor.of(wide, wide.length));
                v.printf(Locale.ROOT, "%s %.17g%n", args[i], out[0].item());
                StringBuilder line = new StringBuilder();
                for (double g : out[1].toDoubleArray()) {
                    line.append(line.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "%.17g", g));
                }
                v.println(line);
            }
        }
        write(dir.resolve("data-" + m + ".txt"), data.toString());
        write(dir.resolve("rankgrad-" + m + ".txt"), values.toString());
    }

    private static void writeData(PrintWriter d, OperatorCase c, int m) {
        QueryBatch batch = c.batch();
        d.println(batch.queries() + " " + m);
        for (int q = 0; q < batch.queries(); q++) {
            int from = batch.start(q);
            d.println(join(batch.labelsOf(q), 0, m));
            d.println(join(c.scores(), from, m));
            d.println(join(c.cotangent(), from, m));
        }
    }

    private static String join(float[] x, int from, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < from + n; i++) {
            sb.append(i == from ? "" : " ").append(Float.toString(x[i]));
        }
        return sb.toString();
    }

    /** Atomic: a temporary file beside the target, then a move. */
    private static void write(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
