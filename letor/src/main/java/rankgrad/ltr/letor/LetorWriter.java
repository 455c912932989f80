package rankgrad.ltr.letor;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import rankgrad.ltr.io.AtomicWrite;

/**
 * Writes datasets in the LETOR / SVMlight format {@link LetorReader} reads: integral labels without a
 * decimal point, zero features left out, values in the shortest form that reads back to the same
 * float. The file is written atomically ({@link AtomicWrite}); a name ending in {@code .gz} is
 * compressed.
 */
public final class LetorWriter {
    private LetorWriter() {
    }

    /** Writes {@code data} to {@code file}. */
    public static void write(Dataset data, Path file) throws IOException {
        AtomicWrite.write(file, out -> {
            Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
            StringBuilder line = new StringBuilder(256);
            for (Query q : data.queries()) {
                for (int d = 0; d < q.docs(); d++) {
                    line.setLength(0);
                    float label = q.labels()[d];
                    line.append(label == Math.rint(label) && Math.abs(label) < 1e9 ? Long.toString((long) label) : Float.toString(label));
                    line.append(" qid:").append(q.qid());
                    for (int f = 0; f < q.features(); f++) {
                        float v = q.feature(d, f);
                        if (v != 0f) {
                            line.append(' ').append(f + 1).append(':').append(v);
                        }
                    }
                    w.append(line).append('\n');
                }
            }
            w.flush();
        });
    }
}
