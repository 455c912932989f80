package rankgrad.tornado;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * The pair work of one ApproxNDCG step (approximate ranks forward, type-1 rank gradient backward)
 * on the CPU backend (SIMD, all cores) and on the TornadoVM device, for batches of B queries x m
 * documents. Not a test (surefire skips *Benchmark); run by {@code scripts/bench-tornado}, which
 * launches JMH and its fork with TornadoVM's argfile.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PairwiseOffloadBenchmark {
    /** B x m: queries x documents per query. */
    @Param({"16x30", "128x120", "128x1000", "1x10000"})
    public String shape;

    @Param({"cpu", "tornado"})
    public String backend;

    private PairwiseBackend pairwise;
    private RaggedBatch batch;
    private float[] ranks;
    private float[] scoreGrad;

    @Setup
    public void setUp() {
        String[] bm = shape.split("x");
        batch = RaggedBatch.uniform(42, Integer.parseInt(bm[0]), Integer.parseInt(bm[1]));
        ranks = new float[batch.docs()];
        scoreGrad = new float[batch.docs()];
        if (backend.equals("cpu")) {
            pairwise = PairwiseBackends.cpu();
        } else {
            TornadoPairwiseBackend device = new TornadoPairwiseBackend();
            if (!device.isAvailable()) {
                throw new IllegalStateException("no TornadoVM device: launch with @$TORNADOVM_HOME/tornado-argfile");
            }
            pairwise = device;
        }
    }

    @Benchmark
    public float[] forwardBackward() {
        pairwise.approxRanksF32(batch.scores(), batch.offsets(), 10f, ranks);
        pairwise.rankGradientF32(BackwardType.TYPE1, 10f, batch.scores(), batch.labels(), batch.offsets(), ranks,
                scoreGrad);
        return scoreGrad;
    }

    @TearDown
    public void checkTheDeviceDidTheWork() {
        if (pairwise instanceof TornadoPairwiseBackend device && (device.hasFallenBack() || device.deviceCalls() == 0)) {
            throw new IllegalStateException("the TornadoVM backend fell back to the CPU: these timings are not the device's");
        }
    }
}
