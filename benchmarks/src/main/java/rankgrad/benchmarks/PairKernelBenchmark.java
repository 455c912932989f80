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
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * The pair kernels alone, Vector API against the scalar reference, single-threaded: the CPU
 * backend ({@code cpu}) against the same backend on the scalar kernels ({@code reference}) on one
 * query of m documents (m^2 pair terms), labels 0-4, scores uniform in [-3, 3) (the range a
 * trained model's scores stay in, where the float32 rank kernels use their exp-free factored path).
 * The score for a kernel is the time for one query; divide by m^2 for the time per pair. Warm-up
 * is long: until C2 compiles them, Vector API loops run hundreds of times slower than scalar ones.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar PairKernelBenchmark</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC", "-Drankgrad.threads=1"})
@State(Scope.Benchmark)
public class PairKernelBenchmark {

    /** Documents in the query. */
    @Param({"120", "1000"})
    public int m;

    /** Which kernel (float32). */
    @Param({"approxRanks", "rankGradient3", "hingeRanks", "hingeRankGradient", "rankNet", "lambdaRank"})
    public String kernel;

    /** vector: the Vector API kernels; scalar: the scalar reference. */
    @Param({"vector", "scalar"})
    public String impl;

    private PairwiseBackend backend;
    private int[] offsets;
    private float[] s;
    private float[] y;
    private float[] g;
    private float[] gain;
    private float[] disc;
    private float[] out;
    private float[] cost;

    @Setup
    public void setUp() {
        backend = switch (impl) {
            case "vector" -> PairwiseBackends.cpu();
            case "scalar" -> PairwiseBackends.reference();
            default -> throw new IllegalArgumentException("impl=" + impl + ": use vector or scalar");
        };
        if (impl.equals("vector") && !backend.toString().contains("vector")) {
            throw new IllegalStateException("Vector API pair kernels unavailable here: " + backend);
        }
        offsets = new int[] {0, m};
        SplittableRandom rnd = new SplittableRandom(42);
        s = new float[m];
        y = new float[m];
        g = new float[m];
        gain = new float[m];
        disc = new float[m];
        out = new float[m];
        cost = new float[m];
        for (int i = 0; i < m; i++) {
            s[i] = (float) rnd.nextDouble(-3, 3);
            y[i] = rnd.nextInt(5);
            g[i] = (float) rnd.nextDouble(-1, 1);
            gain[i] = (float) (Math.pow(2, y[i]) - 1);
            disc[i] = (float) (1 / (Math.log(2 + i) / Math.log(2)));
        }
    }

    /** All rows of the query. */
    @Benchmark
    public float[] rows() {
        switch (kernel) {
            case "approxRanks" -> backend.approxRanksF32(s, offsets, 10f, out);
            case "rankGradient3" -> backend.rankGradientF32(BackwardType.TYPE3, 1f, s, y, offsets, g, out);
            case "hingeRanks" -> backend.hingeRanksF32(1f, s, y, offsets, out);
            case "hingeRankGradient" -> backend.hingeRankGradientF32(1f, s, y, offsets, g, out);
            case "rankNet" -> backend.logisticPairsF32(1f, s, y, null, null, offsets, out, cost);
            case "lambdaRank" -> backend.logisticPairsF32(1f, s, y, gain, disc, offsets, out, cost);
            default -> throw new IllegalArgumentException("kernel=" + kernel);
        }
        return out;
    }
}
