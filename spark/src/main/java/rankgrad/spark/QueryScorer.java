package rankgrad.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * Scores query rows with a broadcast model: a transformer from {@link QueryRow}s to the same rows
 * with {@link QueryRow#getScores()} set, or to one row per document ({@link DocumentScore}).
 *
 * <pre>{@code
 * QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(Path.of("model.json")));
 * Dataset<QueryRow> test = QueryFrames.readLetor(spark, LetorInput.of(path).withWidth(scorer.features())
 *         .withDropWider(scorer.dropsWider()));
 * Dataset<QueryRow> scored = scorer.transform(test);
 * }</pre>
 *
 * <p>The model travels once per executor as its model-file JSON ({@code ModelFile.toJson}); each
 * executor JVM builds one immutable {@link Scorer} from it and shares it among its tasks. Each
 * query is scored exactly as {@code rankgrad predict} scores it ({@link Scorer#score(Query)}: the
 * model's feature subset, its normalization, the network in evaluation mode), so the scores are
 * bit for bit {@code predict}'s, whatever the partitioning. Before scoring, a task sizes rankgrad's
 * thread pool to {@code spark.task.cpus} ({@link TaskThreads}).
 *
 * <p>A NaN or infinite score fails the job naming the file, query and document.
 */
public final class QueryScorer implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Broadcast<String> model;
    /** Names the model in the executors' scorer cache (unique across SparkContexts, unlike broadcast ids). */
    private final String key;
    private final int features;
    private final boolean dropsWider;

    private QueryScorer(Broadcast<String> model, int features, boolean dropsWider) {
        this.model = model;
        this.key = UUID.randomUUID().toString();
        this.features = features;
        this.dropsWider = dropsWider;
    }

    /** Broadcasts {@code model} to the session's executors. */
    public static QueryScorer of(SparkSession spark, RankingModel model) {
        Scorer local = model.scorer();
        Broadcast<String> json = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(ModelFile.toJson(model));
        return new QueryScorer(json, local.features(), !local.inputs().isAll());
    }

    /** The raw feature columns the model reads: the width to read data with. */
    public int features() {
        return features;
    }

    /** Whether the model reads a feature subset, so that wider data may be read with its columns dropped. */
    public boolean dropsWider() {
        return dropsWider;
    }

    /** The rows with their scores set, in the same partitions and order. */
    public Dataset<QueryRow> transform(Dataset<QueryRow> queries) {
        Broadcast<String> m = model;
        String k = key;
        return queries.mapPartitions((MapPartitionsFunction<QueryRow, QueryRow>) rows -> {
            TaskThreads.limit();
            return scoring(ExecutorScorers.of(k, m), rows);
        }, QueryFrames.encoder());
    }

    /**
     * The partition's rows scored one at a time as they are asked for: a task holds the query it
     * scores, never its partition a second time.
     */
    static Iterator<QueryRow> scoring(Scorer scorer, Iterator<QueryRow> rows) {
        return Streamed.map(rows, q -> {
            q.setScores(score(scorer, q));
            return q;
        });
    }

    /**
     * One row per document of scored queries, each query's documents in rank order (score
     * descending, ties in input order, as {@code predict} writes them).
     */
    public static Dataset<DocumentScore> documents(Dataset<QueryRow> scored) {
        // One query's documents at a time: Spark pulls the next query when these are written.
        return scored.flatMap((FlatMapFunction<QueryRow, DocumentScore>) q -> {
            float[] s = requireScores(q);
            int[] order = Ranking.order(s, 0, s.length, null);
            List<DocumentScore> out = new ArrayList<>(order.length);
            for (int r = 0; r < order.length; r++) {
                int i = order[r];
                out.add(new DocumentScore(q.getOrder(), q.getQid(), q.getDocIds()[i], i, r + 1, s[i], q.getLabels()[i]));
            }
            return out.iterator();
        }, Encoders.bean(DocumentScore.class));
    }

    /** {@link #transform} then {@link #documents}. */
    public Dataset<DocumentScore> transformToDocuments(Dataset<QueryRow> queries) {
        return documents(transform(queries));
    }

    static float[] score(Scorer scorer, QueryRow q) {
        try {
            return scorer.score(new Query(q.getQid(), q.getWidth(), q.getFeatures(), q.getLabels()));
        } catch (NonFiniteScoreException e) {
            throw new IllegalArgumentException(q.getFile() + ": " + e.getMessage() + " (docid " + q.getDocIds()[e.document()]
                    + ")", e);
        }
    }

    /**
     * The scores {@link #transform} set on {@code q}.
     *
     * @throws IllegalArgumentException naming the query and its file when {@code q} is not scored
     */
    public static float[] requireScores(QueryRow q) {
        if (q.getScores() == null) {
            throw new IllegalArgumentException("query " + q.getQid() + " of " + q.getFile() + " has no scores: score it"
                    + " first (QueryScorer.transform)");
        }
        return q.getScores();
    }
}
