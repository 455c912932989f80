package rankgrad.benchmarks;

import java.util.ArrayList;
import java.util.List;
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
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.nn.Layer;
import rankgrad.nn.Linear;
import rankgrad.nn.optim.Adam;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;

/**
 * One training step of Yu's R4.L (4 x 100 ReLU + BatchNorm, linear output) with twin-sigmoid
 * nDCG-type3 on 128 queries x 120 documents x 136 features (15,360 rows, about 4 GFLOP), and
 * on the demo's batch of 64 queries x 50 documents x 50 features ({@code -p batch=64x50x50}, the
 * step of {@code scripts/bench-epoch}): forward, loss, backward, Adam. The reference is the same step in PyTorch 2.x CPU
 * ({@code benchmarks/reference/torch_reference.py step}, run by {@code scripts/bench-training} in the
 * same run). The scalar fallback: {@code -jvmArgsAppend -Drankgrad.kernels=scalar}.
 *
 * <p>{@code gemmOnly} runs just the step's matrix products, on the same shapes and kernels: for each
 * linear layer (in -> out) over the batch's n rows, the forward X W (n x in x out), the weight
 * gradient X^T dY (in x n x out) and, above the first layer, the input gradient dY W^T
 * (n x out x in). {@code step / gemmOnly} is what the step costs beyond its GEMMs.
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

    /** Queries x documents per query x features. */
    @Param({"128x120x136"})
    public String batch;

    private RankingModel ranker;
    private RankingLoss objective;
    private Adam adam;
    private Tensor x;
    private QueryBatch labels;
    private long step;
    private Kernels kernels;
    /** Per linear layer: in, out, then its operand buffers. */
    private final List<int[]> widths = new ArrayList<>();
    private final List<float[][]> operands = new ArrayList<>();
    private int rows;

    @Setup
    public void setUp() {
        String[] dims = batch.split("x");
        int queries = Integer.parseInt(dims[0]);
        int docs = Integer.parseInt(dims[1]);
        int features = Integer.parseInt(dims[2]);
        SplittableRandom rng = new SplittableRandom(42);
        float[] data = new float[queries * docs * features];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) rng.nextGaussian();
        }
        float[][] grades = new float[queries][docs];
        for (float[] q : grades) {
            for (int i = 0; i < docs; i++) {
                q[i] = rng.nextInt(5);
            }
        }
        x = Tensor.of(data, queries * docs, features);
        labels = QueryBatch.of(grades);
        ranker = RankingModel.create(model, features, new Normalization.None(), 1);
        ranker.train();
        objective = Losses.parse(loss, 1).forRun(1_000_000);
        adam = Adam.create(ranker.network().namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
        kernels = KernelProvider.kernels();
        rows = queries * docs;
        for (Layer m : ranker.network().layers().modules()) {
            if (m instanceof Linear lin) {
                int in = lin.weight().value().dim(0);
                int out = lin.weight().value().dim(1);
                widths.add(new int[] {in, out});
                // x, w, y, dy, dw, dx
                operands.add(new float[][] {gaussian(rng, rows * in), gaussian(rng, in * out), new float[rows * out],
                    gaussian(rng, rows * out), new float[in * out], new float[rows * in]});
            }
        }
    }

    private static float[] gaussian(SplittableRandom rng, int size) {
        float[] v = new float[size];
        for (int i = 0; i < size; i++) {
            v[i] = (float) rng.nextGaussian();
        }
        return v;
    }

    @Benchmark
    public double step() {
        adam.zeroGrad();
        Var l = objective.atStep(++step).loss(ranker.forward(x), labels);
        l.backward();
        adam.step();
        return l.value().item();
    }

    @Benchmark
    public float[] gemmOnly() {
        float[] last = null;
        for (int l = 0; l < widths.size(); l++) {
            int in = widths.get(l)[0];
            int out = widths.get(l)[1];
            float[][] o = operands.get(l);
            kernels.gemmF32(false, false, rows, out, in, o[0], o[1], o[2]);
            kernels.gemmF32(true, false, in, out, rows, o[0], o[3], o[4]);
            if (l > 0) {
                kernels.gemmF32(false, true, rows, in, out, o[3], o[1], o[5]);
            }
            last = o[4];
        }
        return last;
    }
}
