package rankgrad.spark.submit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.cli.RunFormatOptions;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.model.ModelFile;
import rankgrad.spark.LetorInput;
import rankgrad.spark.QueryFrames;
import rankgrad.spark.QueryRow;
import rankgrad.spark.QueryScorer;

/**
 * {@code score}: {@code rankgrad predict} on Spark. Writes {@code --out} as a folder of part files
 * whose concatenation in name order is {@code predict}'s output for the same data (the TSV header
 * is in the first part), each query's documents in rank order.
 */
@Command(name = "score", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Score LETOR data with a rankgrad model, as 'rankgrad predict' does, on Spark.",
            "--out is a folder of part files (Spark's text output); 'cat OUT/part-*' is predict's file."})
final class ScoreCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json), read by the driver")
    Path model;

    @Option(names = "--data", required = true, split = ",", description = "LETOR/SVMlight files, folders or globs on any"
            + " Hadoop file system (.gz accepted); comma-separated")
    List<String> data;

    @Option(names = "--out", required = true, description = "output folder (must not exist; the empty folder"
            + " of a failed run is replaced)")
    String out;

    @CommandLine.Mixin
    RunFormatOptions format;

    @Option(names = "--docid-key", paramLabel = "KEY", description = "comment key naming each document (default: docid"
            + " where the file's comments have it, else the position in the query)")
    String docidKey;

    @Option(names = "--split-bytes", defaultValue = "0", description = "bytes of a file one reading task scans"
            + " (0: spark.sql.files.maxPartitionBytes); queries are never split")
    long splitBytes;

    @Override
    public Integer call() throws Exception {
        String runTag = format.runTag();
        SparkSession spark = SparkSession.builder().appName("rankgrad score").getOrCreate();
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        Dataset<QueryRow> queries = QueryFrames.readLetor(spark, new LetorInput(data, scorer.features(),
                Double.POSITIVE_INFINITY, scorer.dropsWider(), docidKey, splitBytes));
        dropLeftover(spark, out);
        lines(scorer.transform(queries), format.trec(), runTag).write().text(out);
        spec.commandLine().getOut().printf("scored %s into %s (%s)%n", String.join(",", data), out, format.describe());
        return 0;
    }

    /**
     * Deletes {@code out} when it is what a failed run leaves: a folder without {@code _SUCCESS} and
     * without part files (empty, or only Spark's {@code _temporary}), so that the same command runs
     * again; a folder with output stays, and Spark refuses to overwrite it.
     */
    static void dropLeftover(SparkSession spark, String out) throws IOException {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(out);
        FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
        if (!fs.exists(p) || !fs.getFileStatus(p).isDirectory()) {
            return;
        }
        for (FileStatus f : fs.listStatus(p)) {
            if (!f.getPath().getName().equals("_temporary")) {
                return;
            }
        }
        fs.delete(p, true);
    }

    /** predict's lines for scored queries; the TSV header starts partition 0. */
    static Dataset<String> lines(Dataset<QueryRow> scored, boolean trec, String runTag) {
        return scored.mapPartitions((MapPartitionsFunction<QueryRow, String>) rows -> {
            List<String> outLines = new ArrayList<>();
            if (!trec && TaskContext.getPartitionId() == 0) {
                outLines.add(RunFormatOptions.TSV_HEADER);
            }
            while (rows.hasNext()) {
                QueryRow q = rows.next();
                float[] s = QueryScorer.requireScores(q);
                int[] order = Ranking.order(s, 0, s.length, null);
                String[] names = q.getDocIds();
                for (int r = 0; r < order.length; r++) {
                    int i = order[r];
                    outLines.add(RunFormatOptions.line(trec, q.getQid(), names[i], r + 1, s[i], runTag));
                }
            }
            return outLines.iterator();
        }, Encoders.STRING());
    }
}
