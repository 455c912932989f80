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
 * Forward + backward of the relaxed-sort losses (NeuralSort, PrilloSoftSort, NeuralNDCG with allRank's 50
 * Sinkhorn iterations, the odd-even and bitonic sorting networks) on one query of m documents
 * (float32 scores; these losses compute in float64). The references at the same m, timed in the same run: {@code
 * benchmarks/python/relaxed_sort_reference.py} (allRank, PrilloSoftSort, diffsort on PyTorch). Short runs:
 *
 * <pre>
 * mvn -B -o -q package -pl benchmarks -am -DskipTests
 * java -jar benchmarks/target/benchmarks.jar RelaxedSortBenchmark -wi 1 -w 1 -i 2 -r 1 -f 1
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 2, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class RelaxedSortBenchmark {
    @Param({"10", "100", "1000"})
    public int m;

    @Param({"neuralsort:1.0", "softsort:1.0", "neural-ndcg:1.0:50", "diffsort-oddeven-cauchy:10",
            "diffsort-bitonic-cauchy:10"})
    public String loss;

    private LossFixture fixture;

    @Setup
    public void setUp() {
        fixture = new LossFixture(1, m, loss, "scalar");
    }

    @Benchmark
    public Tensor forwardBackward() {
        return fixture.forwardBackward();
    }
}
