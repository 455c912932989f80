package rankgrad.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.storage.StorageLevel;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.BatchGradient;
import rankgrad.ltr.train.shards.ShardSum;
import rankgrad.ltr.train.StepGradient;
import rankgrad.ltr.train.shards.VirtualShards;
import scala.Tuple2;

/**
 * Step gradients computed on a Spark cluster, synchronously (one Spark job per step, the way
 * MLlib's {@code GradientDescent} aggregates): the driver broadcasts the step's weights and
 * batch-norm buffers, each of the batch's {@link VirtualShards} is computed whole on some executor
 * ({@link BatchGradient#compute}), and the driver adds the shards in shard order ({@link
 * ShardSum}) before its optimizer steps. The model is therefore a function of the shard count S
 * only: 1, 2 or 100 partitions or executors give the same bits, and so does {@link
 * rankgrad.ltr.train.shards.LocalShards} with S shards in one JVM.
 *
 * <p>Data: the training queries are read once, numbered 0..N-1 in input order (the index the
 * epochs shuffle), normalized with the model's normalization and cached on the executors. At each
 * epoch they are laid out by (step, shard) in {@code partitions} partitions (one shuffle of the
 * training set per epoch), so that a step's job only reads its shards. The training set is never
 * collected to the driver; the driver holds the epoch order (4 bytes per query) and the model.
 *
 * <p>Costs per step: one job, the model broadcast (weights and buffers) and S gradients sent back
 * (S times the parameter count in floats).
 */
final class SparkShards implements StepGradient, AutoCloseable {
    private final JavaSparkContext sc;
    private final JavaRDD<TrainQuery> base;
    private final Broadcast<String> modelJson;
    private final String modelKey;
    private final VirtualShards shards;
    private final int partitions;
    private final String loss;
    private final long lossSeed;
    private final long runSteps;
    private final int queries;
    private final String description;
    private JavaPairRDD<Long, ShardData> layout;
    private int[] order;
    private int batchQueries;
    private int nextBatch;

    private SparkShards(JavaSparkContext sc, JavaRDD<TrainQuery> base, Broadcast<String> modelJson, String modelKey,
            VirtualShards shards, int partitions, String loss, long lossSeed, long runSteps, int queries,
            String description) {
        this.sc = sc;
        this.base = base;
        this.modelJson = modelJson;
        this.modelKey = modelKey;
        this.shards = shards;
        this.partitions = partitions;
        this.loss = loss;
        this.lossSeed = lossSeed;
        this.runSteps = runSteps;
        this.queries = queries;
        this.description = description;
    }

    /**
     * Reads {@code train} (whole queries; numbered in {@code order}), normalizes it with {@code
     * model}'s normalization on the executors and caches it.
     *
     * @param loss the loss's name ({@link Losses#parse}), rebuilt on the executors with {@code lossSeed}
     * @param runSteps the run's length in steps ({@link RankingLoss#forRun})
     */
    static SparkShards create(JavaSparkContext sc, Dataset<QueryRow> train, RankingModel model, String loss,
            long lossSeed, long runSteps, VirtualShards shards, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
        Broadcast<String> json = sc.broadcast(ModelFile.toJson(model));
        String key = UUID.randomUUID().toString();
        JavaRDD<TrainQuery> base = train.orderBy("order").toJavaRDD().zipWithIndex().mapPartitions(rows -> {
            RankingModel m = ExecutorModels.of(key, json);
            // One query at a time into the cache, never the partition twice (raw and normalized).
            return Streamed.map(rows, t -> {
                QueryRow r = t._1();
                Query raw = new Query(r.getQid(), r.getWidth(), r.getFeatures(), r.getLabels());
                Query normalized = m.normalize(new rankgrad.ltr.data.Dataset(r.getFile(), r.getWidth(), List.of(raw)))
                        .queries().get(0);
                return new TrainQuery(Math.toIntExact(t._2()), r.getQid(), normalized.features(), normalized.x(),
                        r.getLabels(), TrainQuery.digest(r.getQid(), r.getLabels(), r.getFeatures()));
            });
        }).persist(StorageLevel.MEMORY_AND_DISK());
        long[] sums = base.map(q -> new long[] {1, q.labels().length, q.digest() * 0x9E3779B97F4A7C15L + q.index(),
                q.width()}).reduce((a, b) -> new long[] {a[0] + b[0], a[1] + b[1], a[2] + b[2], Math.max(a[3], b[3])});
        if (sums[0] == 0) {
            throw new IllegalArgumentException("the training data have no query");
        }
        String description = String.format(Locale.ROOT, "%d queries, %d documents, %d features, content digest %016x",
                sums[0], sums[1], sums[3], sums[2]);
        return new SparkShards(sc, base, json, key, shards, partitions, loss, lossSeed, runSteps,
                Math.toIntExact(sums[0]), description);
    }

    @Override
    public int queries() {
        return queries;
    }

    @Override
    public Map<String, String> identity() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("training data", description);
        if (shards.count() > 1) {
            m.put("virtual shards", Integer.toString(shards.count()));
        }
        return m;
    }

    @Override
    public void startEpoch(int epoch, int[] epochOrder, int batch) {
        if (layout != null) {
            layout.unpersist(false);
        }
        order = epochOrder.clone();
        batchQueries = batch;
        nextBatch = 0;
        int[] position = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            position[order[i]] = i;
        }
        Broadcast<int[]> positions = sc.broadcast(position);
        int s = shards.count();
        int n = queries;
        layout = base.mapToPair(q -> {
            int pos = positions.value()[q.index()];
            int b = pos / batch;
            int p = pos % batch;
            int k = new VirtualShards(s).shardOf(Math.min(batch, n - b * batch), p);
            return new Tuple2<>((long) b * s + k, new Tuple2<>(p, q));
        }).groupByKey(new ShardPartitioner(partitions, s)).mapValues(group -> {
            List<Tuple2<Integer, TrainQuery>> list = new ArrayList<>();
            group.forEach(list::add);
            list.sort(Comparator.comparingInt(Tuple2::_1));
            TrainQuery[] qs = new TrainQuery[list.size()];
            for (int i = 0; i < qs.length; i++) {
                qs[i] = list.get(i)._2();
            }
            return new ShardData(list.get(0)._1(), qs);
        }).persist(StorageLevel.MEMORY_AND_DISK());
        layout.count();
        positions.unpersist(false);
    }

    @Override
    public BatchGradient compute(RankingModel model, RankingLoss runLoss, int[] batch, long step) {
        if (!runLoss.name().equals(Losses.parse(loss, lossSeed).name())) {
            throw new IllegalArgumentException("the trainer's loss " + runLoss.name() + " is not this run's " + loss);
        }
        int b = nextBatch++;
        int from = b * batchQueries;
        if (layout == null || from >= order.length
                || !Arrays.equals(batch, Arrays.copyOfRange(order, from, Math.min(order.length, from + batchQueries)))) {
            throw new IllegalStateException("step " + step + " is not batch " + (b + 1) + " of the epoch laid out");
        }
        Broadcast<NamedTensors> state = sc.broadcast(NamedTensors.of(model.state()));
        Broadcast<String> json = modelJson;
        String key = modelKey;
        int s = shards.count();
        String lossName = loss;
        long seed = lossSeed;
        long steps = runSteps;
        List<ShardResult> results = layout.filter(t -> t._1() / s == b).map(t -> {
            TaskThreads.limit();
            RankingModel m = ExecutorModels.of(key, json);
            m.loadState(state.value().toMap());
            m.train();
            RankingLoss l = Losses.parse(lossName, seed).forRun(steps);
            ShardData d = t._2();
            int[] idx = new int[d.queries().length];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            return ShardResult.of((int) (t._1() % s), BatchGradient.compute(m, l, d.dataset(), idx, d.firstQuery(), step));
        }).collect();
        state.destroy();
        BatchGradient[] byShard = new BatchGradient[s];
        for (ShardResult r : results) {
            byShard[r.shard()] = r.gradient();
        }
        List<BatchGradient> parts = new ArrayList<>(s);
        for (int k = 0; k < s; k++) {
            parts.add(byShard[k] != null ? byShard[k] : BatchGradient.empty(shards.start(batch.length, k)));
        }
        return ShardSum.install(model, parts);
    }

    /** Drops the cached training data and layout from the executors. */
    @Override
    public void close() {
        if (layout != null) {
            layout.unpersist(false);
        }
        base.unpersist(false);
        modelJson.destroy();
    }
}
