package rankgrad.benchmarks;

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

/**
 * Forward + backward of the LambdaLoss family, the softmax cross-entropy and LightGBM's LambdaRank
 * on 16 queries of m documents (float32 scores in, score gradient out), beside allRank's {@code
 * lambdaLoss} and a PyTorch softmax cross-entropy timed by {@code benchmarks/reference/allrank_reference.py}
 * in the same run (docs/losses.md):
 *
 * <pre>
 * mvn -B -o -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar LambdaLossBenchmark
 * python3 benchmarks/reference/allrank_reference.py /path/to/allRank-checkout
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class LambdaLossBenchmark {
    @Param({"10", "100", "1000"})
    public int m;

    @Param({"ndcgloss1", "ndcgloss2", "ndcgloss2++", "softmax-ce", "lambdarank-lgbm"})
    public String loss;

    private LossFixture fixture;

    @Setup
    public void setUp() {
        fixture = new LossFixture(16, m, loss, "vector");
    }

    @Benchmark
    public Tensor forwardBackward() {
        return fixture.forwardBackward();
    }
}
