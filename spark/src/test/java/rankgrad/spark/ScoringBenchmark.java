package rankgrad.spark;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.apache.spark.sql.SparkSession;
import rankgrad.simd.Parallel;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * Scoring throughput (documents/s, text parsing included) of the Spark path in {@code local[N]}
 * against {@code predict}'s loop in one JVM, on the same file and model, alternating A and B in one
 * run. Not a test: run by {@code scripts/bench-spark}. Arguments: queries, documents per query,
 * features, rounds, Spark master (default 100000/... see the script).
 *
 * <p>Sections are methods ({@link #scoring}) so that other measurements (training) can be added
 * beside it and printed in the same table.
 */
public final class ScoringBenchmark {
    private ScoringBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int queries = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int docs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int features = args.length > 2 ? Integer.parseInt(args[2]) : 136;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        String master = args.length > 4 ? args[4] : "local[2]";
        Path dir = Files.createTempDirectory("rankgrad-bench-spark");
        Path data = dir.resolve("data.txt");
        write(data, queries, docs, features);
        Path model = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("R4.L", features, new Normalization.QueryZScore(), 1), model);
        SparkSession spark = SparkSession.builder().master(master).appName("rankgrad bench-spark")
                .config("spark.ui.enabled", "false").getOrCreate();
        try {
            System.out.printf(Locale.ROOT, "data: %d queries x %d documents x %d features (%.0f MB of text); model R4.L,"
                    + " query z-score; JDK %s, Spark %s, %d processors%n", queries, docs, features,
                    Files.size(data) / 1e6, Runtime.version(), spark.version(), Runtime.getRuntime().availableProcessors());
            scoring(spark, master, data, model, (long) queries * docs, rounds);
        } finally {
            spark.stop();
            Files.deleteIfExists(data);
            Files.deleteIfExists(model);
            Files.deleteIfExists(dir);
        }
    }

    /** predict's loop vs the Spark transformer, alternating, reading and scoring the same file. */
    static void scoring(SparkSession spark, String master, Path data, Path model, long documents, int rounds)
            throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        double[] one = new double[rounds];
        double[] sp = new double[rounds];
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        for (int r = -1; r < rounds; r++) {
            // predict uses every core through rankgrad's pool; the Spark tasks size it to spark.task.cpus.
            Parallel.setThreads(cores);
            long t0 = System.nanoTime();
            Scorer s = ModelFile.read(model).scorer();
            double[] sink = new double[1];
            LetorReader.streamWithComments(data, s.features(), LetorOptions.DEFAULT, false, (q, c) -> sink[0] += s.score(q)[0]);
            long t1 = System.nanoTime();
            long n = scorer.transform(QueryFrames.readLetor(spark, LetorInput.of(data.toString()).withWidth(scorer.features())))
                    .count();
            long t2 = System.nanoTime();
            if (n == 0 || Double.isNaN(sink[0])) {
                throw new IllegalStateException("nothing scored");
            }
            if (r >= 0) {
                one[r] = documents / ((t1 - t0) / 1e9);
                sp[r] = documents / ((t2 - t1) / 1e9);
            }
        }
        System.out.println("| path | documents/s (median of " + rounds + ") | rounds |");
        System.out.println("|---|---|---|");
        System.out.printf(Locale.ROOT, "| predict, one JVM (%d threads) | %.0f | %s |%n", cores, median(one), list(one));
        System.out.printf(Locale.ROOT, "| Spark %s (1 thread per task) | %.0f | %s |%n", master, median(sp), list(sp));
        System.out.printf(Locale.ROOT, "Spark / predict: %.2f%n", median(sp) / median(one));
    }

    private static void write(Path file, int queries, int docs, int features) throws Exception {
        Random r = new Random(42);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            StringBuilder b = new StringBuilder();
            for (int q = 0; q < queries; q++) {
                for (int d = 0; d < docs; d++) {
                    b.setLength(0);
                    b.append(r.nextInt(5)).append(" qid:").append(q);
                    for (int f = 1; f <= features; f++) {
                        b.append(' ').append(f).append(':').append(Math.round(r.nextGaussian() * 1e4) / 1e4f);
                    }
                    b.append(" # docid = d").append(q).append('-').append(d).append('\n');
                    w.append(b);
                }
            }
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String list(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", x));
        }
        return b.toString();
    }
}
