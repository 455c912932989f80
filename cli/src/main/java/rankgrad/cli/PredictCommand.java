package rankgrad.cli;

import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.eval.DocIds;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.Scorer;

/**
 * {@code rankgrad predict}: scores every document of a LETOR file and writes each query's
 * documents in rank order (highest score first, ties in input order as {@code eval}'s default
 * ranks them), as TSV or as a TREC run for {@code trec_eval}. The file is streamed query by query,
 * so files larger than memory can be scored; the output is written atomically.
 */
@Command(name = "predict", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Score documents and rank each query's documents, highest score first (ties in input order).",
            "tsv: a header, then qid, docid, rank, score, tab-separated.",
            "trec: a TREC run for trec_eval, 'qid Q0 docid rank score tag'.",
            "Documents are named by the 'docid = X' pair of their line's comment (another key: --docid-key),"
                + " or by their 0-based position in the query when the file has no such comments."})
final class PredictCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json)")
    Path model;

    @Option(names = "--data", required = true, description = "LETOR/SVMlight file (streamed; .gz accepted)")
    Path data;

    @Option(names = "--out", required = true, description = "output file, written atomically (.gz compresses)")
    Path out;

    @CommandLine.Mixin
    LetorInputOptions input;

    @CommandLine.Mixin
    RunFormatOptions format;

    @Option(names = "--docid-key", paramLabel = "KEY", description = "comment key naming each document (default: "
            + DocIds.DEFAULT_KEY + " where the file's comments have it, else the position in the query; a key named here"
            + " must be on every line)")
    String docidKey;

    @Override
    public Integer call() throws Exception {
        String runTag = format.runTag();
        boolean trec = format.trec();
        DocIds ids;
        try {
            ids = new DocIds(docidKey);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--docid-key: " + e.getMessage());
        }
        Scorer m = ModelFile.readScorer(model);
        long[] count = new long[2];
        AtomicWrite.write(out, stream -> {
            Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            if (!trec) {
                w.write(RunFormatOptions.TSV_HEADER + "\n");
            }
            LetorReader.streamWithComments(data, m.features(), input.options(), !m.inputs().isAll(), (q, comments) -> {
                String[] names = ids.names(data, q.qid(), comments);
                float[] s;
                try {
                    s = m.score(q);
                } catch (NonFiniteScoreException e) {
                    throw new IllegalArgumentException(data + ": " + e.getMessage() + " (docid " + names[e.document()]
                            + "); nothing was written", e);
                }
                int[] order = Ranking.order(s, 0, s.length, null);
                for (int r = 0; r < order.length; r++) {
                    int i = order[r];
                    w.write(RunFormatOptions.line(trec, q.qid(), names[i], r + 1, s[i], runTag) + "\n");
                }
                count[0]++;
                count[1] += s.length;
            });
            w.flush();
        });
        spec.commandLine().getOut().printf("scored %d documents of %d queries into %s (%s, %s)%n", count[1], count[0], out,
                format.describe(), ids.describe());
        return 0;
    }
}
