package rankgrad.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.autodiff.optim.Adam;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;

/**
 * One training step of Yu's R4.L (4 x 100 ReLU + BatchNorm, linear output) with twin-sigmoid
 * nDCG-type3 on 128 queries x 120 documents x 136 features (15,360 rows, about 4 GFLOP):
 * forward, loss, backward, Adam. The reference is the same step in PyTorch 2.x CPU
 * ({@code benchmarks/reference/torch_reference.py step}, run by {@code scripts/bench-training} in the
 * same run). The scalar fallback: {@code -jvmArgsAppend -Drankgrad.kernels=scalar}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC"})
public class TrainingStepBenchmark {
    @Param({"ndcg-type3"})
    public String loss;

    @Param({"R4.L"})
    public String model;

    private RankingModel ranker;
    private RankingLoss objective;
    private Adam adam;
    private Tensor x;
    private QueryBatch batch;
    private long step;

    @Setup
    public void setUp() {
        int queries = 128;
        int docs = 120;
        int features = 136;
        SplittableRandom rng = new SplittableRandom(42);
        float[] data = new float[queries * docs * features];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) rng.nextGaussian();
        }
        float[][] labels = new float[queries][docs];
        for (float[] q : labels) {
            for (int i = 0; i < docs; i++) {
                q[i] = rng.nextInt(5);
            }
        }
        x = Tensor.of(data, queries * docs, features);
        batch = QueryBatch.of(labels);
        ranker = RankingModel.create(model, features, new Normalization.None(), 1);
        ranker.train();
        objective = Losses.parse(loss, 1).forRun(1_000_000);
        adam = Adam.create(ranker.network().namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
    }

    @Benchmark
    public double step() {
        adam.zeroGrad();
        Var l = objective.atStep(++step).loss(ranker.forward(x), batch);
        l.backward();
        adam.step();
        return l.value().item();
    }
}
