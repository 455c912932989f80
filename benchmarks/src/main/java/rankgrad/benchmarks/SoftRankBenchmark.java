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
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.Regularization;
import rankgrad.ltr.rank.SoftRank;

/**
 * Forward + backward of one query of m documents through soft ranks (Blondel et al. 2020): the
 * {@link SoftRank} node alone (forward, then the vector-Jacobian product of a fixed cotangent), and
 * the composed loss {@code ndcg~softrank-Q:0.1} (forward with the nDCG of the soft ranks and its
 * ideal DCG, backward to the scores). Scores float32 ~ N(0, 1), grades 0..4, seeded. The
 * numpy reference, timed with the same m: {@code benchmarks/reference/fast_soft_sort_timing.py}.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar SoftRankBenchmark -prof gc</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class SoftRankBenchmark {
    /** Documents in the one query. */
    @Param({"10", "100", "1000", "1000000"})
    public int m;

    /** {@code q} or {@code e}: quadratic or entropic regularization. */
    @Param({"q", "e"})
    public String reg;

    private SoftRank op;
    private Tensor scores;
    private Tensor cotangent;
    private LossFixture ndcg;

    @Setup
    public void setUp() {
        Regularization regularization = reg.equals("q") ? Regularization.QUADRATIC : Regularization.ENTROPIC;
        op = SoftRank.of(new QueryBatch(new int[] {0, m}, new float[m]), regularization, 0.1);
        SplittableRandom rng = new SplittableRandom(2020);
        float[] s = new float[m];
        float[] g = new float[m];
        for (int i = 0; i < m; i++) {
            s[i] = (float) rng.nextGaussian();
            g[i] = (float) rng.nextGaussian();
        }
        scores = Tensor.of(s, m);
        cotangent = Tensor.of(g, m);
        ndcg = new LossFixture(1, m, "ndcg~softrank-" + reg + ":0.1", "vector");
    }

    /** The soft-rank node: forward, then backward of a fixed dL/dr. */
    @Benchmark
    public Tensor softRank() {
        Op.Result<SoftRank.Saved> result = op.forward(scores);
        return op.backward(result.residuals(), cotangent, new boolean[] {true})[0];
    }

    /** The loss ndcg~softrank-Q:0.1: soft ranks, nDCG with its ideal DCG, and the whole backward. */
    @Benchmark
    public Tensor softRankNdcg() {
        return ndcg.forwardBackward();
    }
}
