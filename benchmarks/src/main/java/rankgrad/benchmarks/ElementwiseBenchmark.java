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
import rankgrad.autodiff.kernel.KernelProvider;
import rankgrad.autodiff.kernel.Kernels;
import rankgrad.autodiff.kernel.VectorKernels;

/**
 * Elementwise sigmoid and exp over 2^20 floats, Vector API kernels against the scalar reference
 * (single-threaded: these kernels run inside ops that are already split over rows).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC"})
@State(Scope.Benchmark)
public class ElementwiseBenchmark {
    private static final int N = 1 << 20;

    /** Which function. */
    @Param({"sigmoid", "exp"})
    public String op;

    /** vector: {@link VectorKernels}; scalar: {@code ScalarKernels}. */
    @Param({"vector", "scalar"})
    public String impl;

    private Kernels kernels;
    private float[] x;
    private float[] y;

    /** Inputs uniform in [-20, 20): both branches of the stable sigmoid, no overflow in exp. */
    @Setup
    public void setUp() {
        kernels = switch (impl) {
            case "vector" -> new VectorKernels();
            case "scalar" -> KernelProvider.scalar();
            default -> throw new IllegalArgumentException("impl=" + impl + ": use vector or scalar");
        };
        SplittableRandom rnd = new SplittableRandom(42);
        x = new float[N];
        y = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = (float) rnd.nextDouble(-20, 20);
        }
    }

    /** One pass over the 2^20 inputs. */
    @Benchmark
    public float[] apply() {
        switch (op) {
            case "sigmoid" -> kernels.sigmoidF32(x, 0, y, 0, N);
            case "exp" -> kernels.expF32(x, 0, y, 0, N);
            default -> throw new IllegalArgumentException("op=" + op + ": use sigmoid or exp");
        }
        return y;
    }
}
