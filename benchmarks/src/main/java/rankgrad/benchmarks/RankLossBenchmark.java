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
 * Forward + backward of the rank losses on B = 128 queries of m documents, as in training: scores
 * in, score gradient out. The target: twin-sigmoid nDCG type 3 at m = 120 within 3 ms
 * (PyTorch 1.13 CPU, 2 threads: 16.6 ms; type 1 10.6 ms; ApproxNDCG 10.5 ms; 3.4 s at m = 1000).
 *
 * <p>{@code kernels = scalar} runs the same losses on the scalar reference kernels: the ratio to
 * {@code vector} in the same run is the SIMD speed-up.
 *
 * <pre>
 * mvn -B -o -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar RankLossBenchmark -p kernels=vector
 * java -jar benchmarks/target/benchmarks.jar RankLossBenchmark -p m=120
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class RankLossBenchmark {
    @Param({"32", "120", "512", "1000"})
    public int m;

    @Param({"ndcg-type3", "approx-ndcg", "ranknet", "lambdarank", "sdcg@10", "shf-sdcg@10"})
    public String loss;

    @Param({"vector", "scalar"})
    public String kernels;

    private LossFixture fixture;

    @Setup
    public void setUp() {
        fixture = new LossFixture(128, m, loss, kernels);
    }

    @Benchmark
    public Tensor forwardBackward() {
        return fixture.forwardBackward();
    }
}
