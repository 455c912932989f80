package rankgrad.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Workspace;
import rankgrad.nn.ops.AffineBatchNormRelu;
import rankgrad.nn.ops.BatchNorm;

/**
 * One hidden layer of R4.L, forward and backward, on the training step's shape (15,360 rows, or
 * {@code rows}; 100 -> 100): the fused {@link AffineBatchNormRelu} node with its tensors in a workspace
 * ({@code fused}), against Linear, BatchNorm and ReLU as three nodes ({@code unfused}). Both compute
 * the same bits; the difference is passes over memory, parallel round trips and allocation (run
 * with {@code -prof gc}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC"})
@State(Scope.Benchmark)
public class FusedLayerBenchmark {
    private static final BatchNorm.StatisticsSink IGNORE = (mean, variance, rows) -> { };

    /** fused: one node in a workspace; unfused: Affine, BatchNorm, Relu. */
    @Param({"fused", "unfused"})
    public String impl;

    /** Rows of the batch: 15,360 (128 queries x 120 documents), or the demo step's 3,200 ({@code -p rows=3200}). */
    @Param({"15360"})
    public int rows;

    /**
     * Whether each call finds its inputs out of the caches, as a training step's backward finds the
     * activations the other layers' work has evicted: before each call (outside the timing) a 64 MiB
     * buffer, twice the L3 of the machine in docs/performance.md, is written. Use with {@code -bm sample}:
     * a per-call setup.
     */
    @Param({"false"})
    public boolean coldCaches;

    private float[] evictor;
    private Var x;
    private Var w;
    private Var b;
    private Var gamma;
    private Var beta;
    private Tensor seed;
    private final Workspace workspace = new Workspace();

    @Setup
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(42);
        x = Var.constant(gaussian(rng, rows, 100));
        w = Var.param(gaussian(rng, 100, 100));
        b = Var.param(gaussian(rng, 100));
        gamma = Var.param(Tensor.full(DType.F32, 1, 100));
        beta = Var.param(Tensor.zeros(DType.F32, 100));
        seed = gaussian(rng, rows, 100);
        evictor = coldCaches ? new float[16 << 20] : null;
    }

    /** Writes one float per cache line of the evictor when {@code coldCaches}. */
    @Setup(Level.Invocation)
    public void evictCaches() {
        if (evictor != null) {
            for (int i = 0; i < evictor.length; i += 16) {
                evictor[i] += 1f;
            }
        }
    }

    private static Tensor gaussian(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F32, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextGaussian() * 0.1);
        }
        return t;
    }

    /** Forward, then backward from a fixed upstream gradient; returns one weight gradient. */
    @Benchmark
    public Tensor layer() {
        w.zeroGrad();
        b.zeroGrad();
        gamma.zeroGrad();
        beta.zeroGrad();
        Var y = impl.equals("fused")
                ? Var.apply(AffineBatchNormRelu.inWorkspace(1e-5, IGNORE, workspace, false, false), x, w, b, gamma, beta)
                : Ops.relu(Var.apply(BatchNorm.training(1e-5, IGNORE), Ops.affine(x, w, b), gamma, beta));
        y.backward(seed);
        return w.grad();
    }
}
