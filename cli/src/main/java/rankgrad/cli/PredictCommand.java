package rankgrad.cli;

import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.eval.DocIds;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.Scorer;

/**
 * {@code rankgrad predict}: scores every document of a LETOR file and writes each query's
 * documents in rank order (highest score first, ties in input order as {@code eval}'s default
 * ranks them), as TSV or as a TREC run for {@code trec_eval}, or one score per line in the file's
 * document order (LightGBM's and XGBoost's prediction format). The file is streamed query by
 * query, so files larger than memory can be scored; several models score it in the same pass,
 * each into its own output (paired in order), every output written atomically.
 */
@Command(name = "predict", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Score documents and rank each query's documents, highest score first (ties in input order).",
            "tsv: a header, then qid, docid, rank, score, tab-separated.",
            "trec: a TREC run for trec_eval, 'qid Q0 docid rank score tag'.",
            "scores: one score per line in the data's document order, no header (LightGBM's and XGBoost's prediction"
                + " format; eval --scores reads it).",
            "Several models: repeat --model and --out (the k-th --out is the k-th model's output); the data are read once.",
            "Documents are named by the 'docid = X' pair of their line's comment (another key: --docid-key),"
                + " or by their 0-based position in the query when the file has no such comments."})
final class PredictCommand implements Callable<Integer> {
    /** The output formats. */
    enum Format {
        /** A header, then qid, docid, rank, score, tab-separated. */
        tsv,
        /** A TREC run for trec_eval, 'qid Q0 docid rank score tag'. */
        trec,
        /** One score per line in the data's document order. */
        scores
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json); repeatable (with one --out each)")
    List<Path> models;

    @Option(names = "--data", required = true, description = "LETOR/SVMlight file (streamed; .gz accepted)")
    Path data;

    @Option(names = "--out", required = true, description = "output file, written atomically (.gz compresses); one per"
            + " --model, in the same order")
    List<Path> outs;

    @CommandLine.Mixin
    LetorInputOptions input;

    @Option(names = "--format", defaultValue = "tsv", description = "output format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--tag", description = "trec only: the run tag of the last column (default: "
            + RunFormatOptions.DEFAULT_TAG + ")")
    String tag;

    @Option(names = "--docid-key", paramLabel = "KEY", description = "comment key naming each document (default: "
            + DocIds.DEFAULT_KEY + " where the file's comments have it, else the position in the query; a key named here"
            + " must be on every line)")
    String docidKey;

    @Override
    public Integer call() throws Exception {
        boolean trec = format == Format.trec;
        String runTag = RunFormatOptions.checkTag(spec.commandLine(), tag, trec);
        if (outs.size() != models.size()) {
            throw bad(models.size() + " --model and " + outs.size() + " --out: give one --out per --model, in the same order");
        }
        if (outs.stream().map(p -> p.toAbsolutePath().normalize()).distinct().count() < outs.size()) {
            throw bad("an --out is given twice: " + outs);
        }
        DocIds ids;
        try {
            ids = new DocIds(docidKey);
        } catch (IllegalArgumentException e) {
            throw bad("--docid-key: " + e.getMessage());
        }
        List<Scorer> scorers = new ArrayList<>();
        for (Path m : models) {
            scorers.add(ModelFile.readScorer(m));
        }
        int width = scorers.stream().mapToInt(Scorer::features).max().orElseThrow();
        for (int i = 0; i < scorers.size(); i++) {
            if (scorers.get(i).inputs().isAll() && scorers.get(i).features() != width) {
                throw bad(models.get(i) + " reads " + scorers.get(i).features() + " features, another --model " + width
                        + "; models of different widths need separate calls");
            }
        }
        boolean dropWider = scorers.stream().noneMatch(s -> s.inputs().isAll());
        long[] count = new long[2];
        writeAll(new ArrayList<>(), writers -> {
            if (format == Format.tsv) {
                for (Writer w : writers) {
                    w.write(RunFormatOptions.TSV_HEADER + "\n");
                }
            }
            LetorReader.streamWithComments(data, width, input.options(), dropWider, (q, comments) -> {
                String[] names = format == Format.scores ? null : ids.names(data, q.qid(), comments);
                for (int m = 0; m < scorers.size(); m++) {
                    write(writers.get(m), q, score(scorers.get(m), m, q, names), names, runTag);
                }
                count[0]++;
                count[1] += q.docs();
            });
        });
        String what = format == Format.scores ? "one score per line in the data's document order"
                : (trec ? "TREC run" : "TSV") + ", " + ids.describe();
        for (int m = 0; m < models.size(); m++) {
            spec.commandLine().getOut().printf("scored %d documents of %d queries %sinto %s (%s)%n", count[1], count[0],
                    models.size() == 1 ? "" : "with " + models.get(m) + " ", outs.get(m), what);
        }
        return 0;
    }

    private float[] score(Scorer scorer, int m, Query q, String[] names) {
        try {
            return scorer.score(q);
        } catch (NonFiniteScoreException e) {
            throw new IllegalArgumentException(data + ": " + e.getMessage() + (names == null ? " (document "
                    + e.document() + " of query " + q.qid() + ")" : " (docid " + names[e.document()] + ")")
                    + (models.size() == 1 ? "" : " with " + models.get(m)) + "; nothing was written", e);
        }
    }

    /** One query's lines: ranked (tsv, trec) or its scores in document order. */
    private void write(Writer w, Query q, float[] s, String[] names, String runTag) throws IOException {
        if (format == Format.scores) {
            for (float v : s) {
                w.write(v + "\n");
            }
            return;
        }
        int[] order = Ranking.order(s, 0, s.length, null);
        for (int r = 0; r < order.length; r++) {
            int i = order[r];
            w.write(RunFormatOptions.line(format == Format.trec, q.qid(), names[i], r + 1, s[i], runTag) + "\n");
        }
    }

    /** What writes every output: one writer per --out, in order. */
    private interface Outputs {
        void write(List<Writer> writers) throws IOException;
    }

    /**
     * Opens the outputs one inside the other, each an {@link AtomicWrite}, and runs {@code body}
     * with all of them: a failure anywhere leaves every output as it was (the renames happen only
     * once {@code body} has returned, innermost first).
     */
    private void writeAll(List<Writer> open, Outputs body) throws IOException {
        if (open.size() == outs.size()) {
            body.write(open);
            return;
        }
        AtomicWrite.write(outs.get(open.size()), stream -> {
            Writer w = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            open.add(w);
            writeAll(open, body);
            w.flush();
        });
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
