package rankgrad.ltr.train.shards;

import rankgrad.ltr.train.InputNoise;
import rankgrad.ltr.train.BatchGradient;
import rankgrad.ltr.train.CheckpointException;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;

class LocalShardsTest {
    private static final CubicData GEN = CubicData.create(10, 5);
    private static final Dataset TRAIN = GEN.sample("train", 96, 20, 1);
    private static final Dataset VALID = GEN.sample("valid", 48, 20, 2);

    @TempDir
    Path dir;

    private static RankingModel mlp(boolean batchNorm, Normalization normalization) {
        return RankingModel.of("test-mlp", Mlp.create(Mlp.builder(10).hidden(16, 8).activation(Activation.relu())
                .batchNorm(batchNorm).seed(11).spec()), normalization);
    }

    private static TrainingConfig config() {
        return TrainingConfig.defaults().withEpochs(4).withBatchQueries(16).withLearningRate(5e-3).withPatience(0)
                .withSeed(3);
    }

    /** Queries whose documents come in pairs with equal features and different labels: every pair ties. */
    private static Dataset tiedPairs(int queries) {
        SplittableRandom rng = new SplittableRandom(17);
        List<Query> out = new ArrayList<>();
        for (int q = 0; q < queries; q++) {
            int pairs = 3 + rng.nextInt(4);
            float[] x = new float[2 * pairs * 10];
            float[] y = new float[2 * pairs];
            for (int p = 0; p < pairs; p++) {
                for (int f = 0; f < 10; f++) {
                    float v = (float) rng.nextGaussian();
                    x[(2 * p) * 10 + f] = v;
                    x[(2 * p + 1) * 10 + f] = v;
                }
                y[2 * p] = rng.nextInt(3);
                y[2 * p + 1] = 2 - y[2 * p];
            }
            y[0] = 2;
            out.add(new Query("q" + q, 10, x, y));
        }
        return new Dataset("tied", 10, out);
    }

    private static int[] range(int n) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        return idx;
    }

    private static Map<String, Tensor> gradientOf(VirtualShards shards, RankingModel model, Dataset data,
            RankingLoss loss, long step) {
        model.train();
        BatchGradient g = LocalShards.of(model, data, shards).compute(model, loss, range(data.size()), step);
        assertEquals(null, g.nonFinite());
        return g.gradients();
    }

    @Test
    void everyBatchPositionIsInTheShardWhoseRangeHoldsIt() {
        for (int shards = 1; shards <= 7; shards++) {
            VirtualShards v = new VirtualShards(shards);
            for (int n = 1; n <= 20; n++) {
                assertEquals(0, v.start(n, 0));
                assertEquals(n, v.start(n, shards));
                for (int p = 0; p < n; p++) {
                    int k = v.shardOf(n, p);
                    assertTrue(v.start(n, k) <= p && p < v.start(n, k + 1), "S " + shards + ", n " + n + ", p " + p);
                }
            }
        }
    }

    @Test
    void oneShardIsTheWholeBatchsForwardAndBackward() {
        RankingLoss loss = Losses.parse("ndcg-type3", 5);
        RankingModel direct = mlp(true, new Normalization.QueryZScore());
        direct.train();
        Dataset normalized = direct.normalize(TRAIN);
        int[] idx = {5, 3, 40, 7, 90, 12};
        Var value = loss.atStep(9).loss(direct.forward(normalized.featureMatrix(idx)), normalized.labelBatch(idx));
        value.backward();

        RankingModel sharded = mlp(true, new Normalization.QueryZScore());
        sharded.train();
        BatchGradient g = LocalShards.of(sharded, TRAIN, VirtualShards.one()).compute(sharded, loss, idx, 9);
        assertEquals(value.value().item(), g.loss());
        direct.network().namedParameters().forEach((name, p) -> {
            assertArrayEquals(p.grad().f32(), g.gradients().get(name).f32(), name);
            assertArrayEquals(p.grad().f32(), sharded.network().namedParameters().get(name).grad().f32(), name);
        });
        direct.network().namedBuffers().forEach((name, t) ->
                assertArrayEquals(t.f32(), sharded.network().namedBuffers().get(name).f32(), name));
    }

    @Test
    void shardsDrawTheWholeBatchsTieBreaks() {
        // Every pair of documents ties, so the ranks, and the gradient, are decided by the draws.
        Dataset tied = tiedPairs(24);
        for (String name : List.of("ndcg-type3", "lambdarank", "listmle")) {
            RankingLoss loss = Losses.parse(name, 21);
            Map<String, Tensor> whole = gradientOf(VirtualShards.one(), mlp(false, new Normalization.None()), tied, loss, 4);
            Map<String, Tensor> five = gradientOf(new VirtualShards(5), mlp(false, new Normalization.None()), tied, loss, 4);
            double scale = 0;
            for (Tensor g : whole.values()) {
                for (float v : g.f32()) {
                    scale = Math.max(scale, Math.abs(v));
                }
            }
            for (Map.Entry<String, Tensor> e : whole.entrySet()) {
                float[] a = e.getValue().f32();
                float[] b = five.get(e.getKey()).f32();
                for (int i = 0; i < a.length; i++) {
                    // Same draws: the shards' gradients differ from the whole batch's only by the
                    // float32 rounding of 24 query terms summed in other groupings, a few ulps of
                    // the gradient's largest entry. A different draw for a tied pair moves entries
                    // by a sizable fraction of it.
                    assertEquals(a[i], b[i], 1e-5 * scale, name + " " + e.getKey() + "[" + i + "]");
                }
            }
        }
    }

    @Test
    void perShardBatchNormAveragesTheShardsRunningStatisticsByDocuments() {
        RankingLoss loss = Losses.parse("ranknet", 1);
        int[] idx = range(10);
        RankingModel two = mlp(true, new Normalization.QueryZScore());
        two.train();
        LocalShards.of(two, TRAIN, new VirtualShards(2)).compute(two, loss, idx, 1);

        double[][] parts = new double[2][];
        long[] docs = new long[2];
        String name = firstBuffer(two, "running_mean");
        for (int k = 0; k < 2; k++) {
            RankingModel one = mlp(true, new Normalization.QueryZScore());
            one.train();
            int[] shard = java.util.Arrays.copyOfRange(idx, 5 * k, 5 * k + 5);
            BatchGradient g = BatchGradient.compute(one, loss, one.normalize(TRAIN), shard, 5 * k, 1);
            parts[k] = g.buffers().get(name).toDoubleArray();
            docs[k] = g.documents();
        }
        RankingModel whole = mlp(true, new Normalization.QueryZScore());
        whole.train();
        LocalShards.of(whole, TRAIN, VirtualShards.one()).compute(whole, loss, idx, 1);
        double[] merged = two.network().namedBuffers().get(name).toDoubleArray();
        double[] global = whole.network().namedBuffers().get(name).toDoubleArray();
        for (int i = 0; i < merged.length; i++) {
            double expected = (docs[0] * parts[0][i] + docs[1] * parts[1][i]) / (docs[0] + docs[1]);
            // float32 buffers, one rounding of a two-term weighted mean.
            assertEquals(expected, merged[i], 1e-6 * Math.max(1, Math.abs(expected)), "running mean " + i);
            // The document-weighted running mean is the whole batch's: the same statistic in exact
            // arithmetic, float32 rounding apart.
            assertEquals(global[i], merged[i], 1e-5 * Math.max(1, Math.abs(global[i])), "whole-batch mean " + i);
        }
        String var = firstBuffer(two, "running_var");
        assertNotEquals(java.util.Arrays.toString(whole.network().namedBuffers().get(var).f32()),
                java.util.Arrays.toString(two.network().namedBuffers().get(var).f32()),
                "per-shard variances leave out the spread between the shards' means");
    }

    @Test
    void batchNormFreeTrainingOnFourShardsStaysCloseToOneShard() throws IOException {
        RankingModel one = mlp(false, new Normalization.QueryZScore());
        Trainer.of(config()).fit(one, Losses.parse("ndcg-type3", 2), TRAIN, VALID, TrainingListener.none());
        RankingModel four = mlp(false, new Normalization.QueryZScore());
        Trainer.of(config()).fit(four, Losses.parse("ndcg-type3", 2),
                LocalShards.of(four, TRAIN, new VirtualShards(4)), VALID, null, TrainingListener.none());
        double worst = maxDifference(one, four);
        // 24 Adam steps of lr 5e-3: the shards' gradients differ by float32 rounding (~1e-7
        // relative), which Adam's normalization can turn into at most a few lr-sized moves of a
        // weight whose gradient is near 0. 1e-3 is a fifth of one step; a wrong weighting of the
        // shards (plain mean instead of n_k / N) or wrong draws exceeds it within a few steps.
        assertTrue(worst < 1e-3, "largest weight difference " + worst);
        assertTrue(worst > 0, "four shards round differently: a zero difference means they were not used");
    }

    @Test
    void theTrainersOwnStepGivesTheBitsOfOneVirtualShard() throws IOException {
        // The trainer's single-machine step (one pass, gradients left where backward put them) and
        // one virtual shard (installed through ShardSum) are one computation: every weight and
        // batch-norm buffer must agree bit for bit (raw bits, so -0.0 differs from +0.0), with
        // batch norm moving buffers, input noise drawn per query and epoch, and LambdaRank's random
        // tie-breaks drawn per step.
        TrainingConfig c = config().withInputNoise(0.1);
        RankingModel direct = mlp(true, new Normalization.QueryZScore());
        Trainer.of(c).fit(direct, Losses.parse("lambdarank", 2), TRAIN, VALID, TrainingListener.none());
        RankingModel sharded = mlp(true, new Normalization.QueryZScore());
        Trainer.of(c).fit(sharded, Losses.parse("lambdarank", 2), LocalShards.of(sharded, TRAIN, VirtualShards.one(),
                InputNoise.of(c.seed(), c.inputNoise())), VALID, null, TrainingListener.none());
        Map<String, Tensor> a = direct.network().state();
        Map<String, Tensor> b = sharded.network().state();
        assertEquals(a.keySet(), b.keySet());
        a.forEach((name, t) -> assertArrayEquals(rawBits(t.f32()), rawBits(b.get(name).f32()), name));
        assertEquals(direct.info().get("validation"), sharded.info().get("validation"));
    }

    private static int[] rawBits(float[] x) {
        int[] out = new int[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = Float.floatToRawIntBits(x[i]);
        }
        return out;
    }

    @Test
    void shardedRunsAreRepeatableAndRecordTheirShardCount() throws IOException {
        RankingModel a = mlp(true, new Normalization.QueryZScore());
        Trainer.of(config()).fit(a, Losses.parse("lambdarank", 2), LocalShards.of(a, TRAIN, new VirtualShards(3)),
                VALID, null, TrainingListener.none());
        RankingModel b = mlp(true, new Normalization.QueryZScore());
        Trainer.of(config()).fit(b, Losses.parse("lambdarank", 2), LocalShards.of(b, TRAIN, new VirtualShards(3)),
                VALID, null, TrainingListener.none());
        assertEquals(0.0, maxDifference(a, b));
        assertEquals("3", ((Map<?, ?>) a.info().get("training")).get("virtual shards"));
    }

    @Test
    void aCheckpointOfAnotherShardCountIsNotResumed() throws IOException {
        TrainingConfig c = config().withEpochs(1).withCheckpoint(dir.resolve("run.ckpt"));
        RankingModel a = mlp(false, new Normalization.QueryZScore());
        Trainer.of(c).fit(a, Losses.parse("ranknet", 2), LocalShards.of(a, TRAIN, new VirtualShards(2)), VALID, null,
                TrainingListener.none());
        RankingModel b = mlp(false, new Normalization.QueryZScore());
        CheckpointException e = assertThrows(CheckpointException.class, () -> Trainer.of(c.withEpochs(1))
                .fit(b, Losses.parse("ranknet", 2), TRAIN, VALID, TrainingListener.none()));
        assertTrue(e.getMessage().contains("virtual shards"), e.getMessage());
    }

    private static String firstBuffer(RankingModel model, String suffix) {
        return model.network().namedBuffers().keySet().stream().filter(n -> n.endsWith(suffix)).findFirst().orElseThrow();
    }

    private static double maxDifference(RankingModel a, RankingModel b) {
        double worst = 0;
        for (Map.Entry<String, Tensor> e : a.network().state().entrySet()) {
            double[] x = e.getValue().toDoubleArray();
            double[] y = b.network().state().get(e.getKey()).toDoubleArray();
            for (int i = 0; i < x.length; i++) {
                worst = Math.max(worst, Math.abs(x[i] - y[i]));
            }
        }
        return worst;
    }
}
