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
 * Forward + backward of the rank losses on one query of m = 10,000 documents: 10^8 pairs, never
 * stored (the fused kernels keep O(m) memory; a float pair matrix would take 400 MB).
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar LargeQueryBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class LargeQueryBenchmark {
    @Param({"10000"})
    public int m;

    @Param({"ndcg-type3", "approx-ndcg"})
    public String loss;

    private LossFixture fixture;

    @Setup
    public void setUp() {
        fixture = new LossFixture(1, m, loss, "vector");
    }

    @Benchmark
    public Tensor forwardBackward() {
        return fixture.forwardBackward();
    }
}
