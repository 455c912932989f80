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
import rankgrad.simd.AdamCoefficients;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * Elementwise sigmoid, exp and one Adam step over 2^20 floats, Vector API kernels against the
 * scalar reference (single-threaded: these kernels run inside ops that are already split over rows,
 * and an optimizer step is one pass per parameter tensor).
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
    @Param({"sigmoid", "exp", "adam"})
    public String op;

    /** vector: the Vector API kernels (required); scalar: {@code ScalarKernels}. */
    @Param({"vector", "scalar"})
    public String impl;

    private Kernels kernels;
    private float[] x;
    private float[] y;
    private float[] m;
    private float[] v;
    /** Yu's Adam: lr 1e-3, L2 1e-3, betas (0.9, 0.999), at step 100. */
    private final AdamCoefficients adam = new AdamCoefficients(1f, 1e-3f, 0.9f, 0.1f, 0.999f, 0.001f,
            (float) (1e-3 / (1 - Math.pow(0.9, 100))), (float) Math.sqrt(1 - Math.pow(0.999, 100)), 1e-8f);

    /** Inputs uniform in [-20, 20): both branches of the stable sigmoid, no overflow in exp. */
    @Setup
    public void setUp() {
        kernels = switch (impl) {
            case "vector" -> KernelProvider.kernels();
            case "scalar" -> KernelProvider.scalar();
            default -> throw new IllegalArgumentException("impl=" + impl + ": use vector or scalar");
        };
        if (impl.equals("vector") && !kernels.name().startsWith("vector")) {
            throw new IllegalStateException("the Vector API kernels did not load: " + kernels.name());
        }
        SplittableRandom rnd = new SplittableRandom(42);
        x = new float[N];
        y = new float[N];
        m = new float[N];
        v = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = (float) rnd.nextDouble(-20, 20);
            y[i] = (float) rnd.nextDouble(-1, 1);
            v[i] = 1e-4f;
        }
    }

    /** One pass over the 2^20 inputs. */
    @Benchmark
    public float[] apply() {
        switch (op) {
            case "sigmoid" -> kernels.sigmoidF32(x, 0, y, 0, N);
            case "exp" -> kernels.expF32(x, 0, y, 0, N);
            // Parameters y with gradients x in [-20, 20): the moments stay normal from call to call.
            case "adam" -> kernels.adamF32(y, x, m, v, N, adam);
            default -> throw new IllegalArgumentException("op=" + op + ": use sigmoid, exp or adam");
        }
        return y;
    }
}
