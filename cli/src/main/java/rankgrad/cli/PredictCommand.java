package rankgrad.cli;

import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/** {@code rankgrad predict}: scores every document of a LETOR file, streaming query by query. */
@Command(name = "predict", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Score documents: writes qid, document index within the query (0-based) and score, tab-separated.")
final class PredictCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json)")
    Path model;

    @Option(names = "--data", required = true, description = "LETOR/SVMlight file (streamed; .gz accepted)")
    Path data;

    @Option(names = "--out", required = true, description = "scores file (TSV), written atomically")
    Path out;

    @Override
    public Integer call() throws Exception {
        Scorer m = ModelFile.read(model).scorer();
        long[] count = new long[2];
        AtomicWrite.write(out, stream -> {
            Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            w.write("qid\tdoc\tscore\n");
            LetorReader.stream(data, m.features(), q -> {
                float[] s = m.score(q);
                for (int i = 0; i < s.length; i++) {
                    w.write(q.qid() + "\t" + i + "\t" + s[i] + "\n");
                }
                count[0]++;
                count[1] += s.length;
            });
            w.flush();
        });
        spec.commandLine().getOut().printf("scored %d documents of %d queries into %s%n", count[1], count[0], out);
        return 0;
    }
}
