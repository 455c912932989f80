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
 * Forward + backward of every rank operator and loss of docs/operators.md and docs/losses.md
 * added with the soft ranks (Blondel et al. 2020) on a batch of {@code
 * OperatorCase.queries(m)} queries of m documents, float32 scores in and the float32 score
 * gradient out: the soft rank and soft sort nodes (a fixed cotangent), the soft-rank nDCG, the
 * relaxed sorts, the sorting networks, the LambdaLoss family, the softmax cross-entropy and
 * LightGBM's LambdaRank. {@code scripts/bench-operators} runs it beside the references
 * ({@code benchmarks/python/operator_references.py}) on the same data and prints one table
 * (docs/operators.md):
 *
 * <pre>
 * scripts/bench-operators
 * java -jar benchmarks/target/benchmarks.jar OperatorBenchmark -p m=100 -p op=ndcgloss2++
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class OperatorBenchmark {
    /** Documents per query. */
    @Param({"10", "100", "1000"})
    public int m;

    /** A loss of the registry, or {@code node:softrank-q:EPS} (soft rank / soft sort node, q or e). */
    @Param({"node:softrank-q:0.1", "node:softrank-e:0.1", "node:softsort-q:0.1", "node:softsort-e:0.1",
            "ndcg~softrank-q:0.1", "ndcg~softrank-e:0.1", "neuralsort:1", "softsort:1", "neural-ndcg:1:50",
            "diffsort-oddeven:10", "diffsort-bitonic:10", "ndcgloss1", "ndcgloss2", "ndcgloss2++", "softmax-ce",
            "lambdarank-lgbm"})
    public String op;

    private OperatorCase fixture;

    @Setup
    public void setUp() {
        fixture = new OperatorCase(op, m);
    }

    @Benchmark
    public Tensor forwardBackward() {
        return fixture.forwardBackward();
    }
}
