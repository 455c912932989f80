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
import rankgrad.ltr.data.LetorReader;
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
    private static final String DEFAULT_TAG = "rankgrad";

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

    @Option(names = "--format", defaultValue = "tsv", description = "output format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--docid-key", paramLabel = "KEY", description = "comment key naming each document (default: "
            + DocIds.DEFAULT_KEY + " where the file's comments have it, else the position in the query; a key named here"
            + " must be on every line)")
    String docidKey;

    @Option(names = "--tag", description = "trec only: the run tag of the last column (default: " + DEFAULT_TAG + ")")
    String tag;

    enum Format { tsv, trec }

    @Override
    public Integer call() throws Exception {
        if (tag != null && format != Format.trec) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tag applies to --format trec only");
        }
        String runTag = tag == null ? DEFAULT_TAG : tag;
        if (!runTag.matches("\\S+")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--tag '" + runTag
                    + "' must be one word without spaces (it is a column of the run)");
        }
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
            if (format == Format.tsv) {
                w.write("qid\tdocid\trank\tscore\n");
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
                    if (format == Format.tsv) {
                        w.write(q.qid() + "\t" + names[i] + "\t" + (r + 1) + "\t" + s[i] + "\n");
                    } else {
                        w.write(q.qid() + " Q0 " + names[i] + " " + (r + 1) + " " + s[i] + " " + runTag + "\n");
                    }
                }
                count[0]++;
                count[1] += s.length;
            });
            w.flush();
        });
        spec.commandLine().getOut().printf("scored %d documents of %d queries into %s (%s, %s)%n", count[1], count[0], out,
                format == Format.trec ? "TREC run" : "TSV", ids.describe());
        return 0;
    }
}
