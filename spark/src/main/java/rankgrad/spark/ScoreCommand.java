package rankgrad.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.model.ModelFile;

/**
 * {@code score}: {@code rankgrad predict} on Spark. Writes {@code --out} as a folder of part files
 * whose concatenation in name order is {@code predict}'s output for the same data (the TSV header
 * is in the first part), each query's documents in rank order.
 */
@Command(name = "score", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Score LETOR data with a rankgrad model, as 'rankgrad predict' does, on Spark.",
            "--out is a folder of part files (Spark's text output); 'cat OUT/part-*' is predict's file."})
final class ScoreCommand implements Callable<Integer> {
    private static final String DEFAULT_TAG = "rankgrad";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json), read by the driver")
    Path model;

    @Option(names = "--data", required = true, split = ",", description = "LETOR/SVMlight files, folders or globs on any"
            + " Hadoop file system (.gz accepted); comma-separated")
    List<String> data;

    @Option(names = "--out", required = true, description = "output folder (must not exist)")
    String out;

    @Option(names = "--format", defaultValue = "tsv", description = "output format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--docid-key", paramLabel = "KEY", description = "comment key naming each document (default: docid"
            + " where the file's comments have it, else the position in the query)")
    String docidKey;

    @Option(names = "--tag", description = "trec only: the run tag of the last column (default: " + DEFAULT_TAG + ")")
    String tag;

    @Option(names = "--split-bytes", defaultValue = "0", description = "bytes of a file one reading task scans"
            + " (0: spark.sql.files.maxPartitionBytes); queries are never split")
    long splitBytes;

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
        SparkSession spark = SparkSession.builder().appName("rankgrad score").getOrCreate();
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        Dataset<QueryRow> queries = QueryFrames.readLetor(spark, new LetorInput(data, scorer.features(),
                Double.POSITIVE_INFINITY, scorer.dropsWider(), docidKey, splitBytes));
        lines(scorer.transform(queries), format == Format.trec, runTag).write().text(out);
        spec.commandLine().getOut().printf("scored %s into %s (%s)%n", String.join(",", data), out,
                format == Format.trec ? "TREC run" : "TSV");
        return 0;
    }

    /** predict's lines for scored queries; the TSV header starts partition 0. */
    static Dataset<String> lines(Dataset<QueryRow> scored, boolean trec, String runTag) {
        return scored.mapPartitions((MapPartitionsFunction<QueryRow, String>) rows -> {
            List<String> outLines = new ArrayList<>();
            if (!trec && TaskContext.getPartitionId() == 0) {
                outLines.add("qid\tdocid\trank\tscore");
            }
            StringBuilder b = new StringBuilder();
            while (rows.hasNext()) {
                QueryRow q = rows.next();
                float[] s = QueryScorer.requireScores(q);
                int[] order = Ranking.order(s, 0, s.length, null);
                String[] names = q.getDocIds();
                for (int r = 0; r < order.length; r++) {
                    int i = order[r];
                    b.setLength(0);
                    if (trec) {
                        b.append(q.getQid()).append(" Q0 ").append(names[i]).append(' ').append(r + 1).append(' ')
                                .append(s[i]).append(' ').append(runTag);
                    } else {
                        b.append(q.getQid()).append('\t').append(names[i]).append('\t').append(r + 1).append('\t')
                                .append(s[i]);
                    }
                    outLines.add(b.toString());
                }
            }
            return outLines.iterator();
        }, Encoders.STRING());
    }
}
