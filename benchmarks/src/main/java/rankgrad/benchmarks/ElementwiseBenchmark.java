package rankgrad.benchmarks;

import java.util.List;
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
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.optim.Adam;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * Elementwise sigmoid, exp and one Adam step over 2^20 floats, Vector API kernels against the
 * scalar reference (single-threaded: these kernels run inside ops that are already split over rows,
 * and an optimizer step is one pass per parameter tensor). Adam's kernel belongs to nn and is not
 * public, so the step is timed through the optimizer, on one parameter tensor of 2^20 floats: the
 * kernel pass plus a few constants per step. Every parameter combination runs in its own JVM, which
 * sets {@code -Drankgrad.kernels} to {@code impl} before any kernel is chosen, so each kernel
 * family (the engine's and nn's) takes that implementation, or fails if it cannot.
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

    /** vector: the Vector API kernels (required); scalar: the scalar references. */
    @Param({"vector", "scalar"})
    public String impl;

    private Kernels kernels;
    private float[] x;
    private float[] y;
    /** Yu's Adam (lr 1e-3, L2 1e-3, betas 0.9, 0.999) over one parameter: y, with gradient x. */
    private Adam adam;

    /** Inputs uniform in [-20, 20): both branches of the stable sigmoid, no overflow in exp. */
    @Setup
    public void setUp() {
        if (!impl.equals("vector") && !impl.equals("scalar")) {
            throw new IllegalArgumentException("impl=" + impl + ": use vector or scalar");
        }
        // "vector" makes the selection fail, naming why, rather than time the scalar fallback.
        System.setProperty("rankgrad.kernels", impl);
        kernels = KernelProvider.kernels();
        SplittableRandom rnd = new SplittableRandom(42);
        x = new float[N];
        y = new float[N];
        for (int i = 0; i < N; i++) {
            x[i] = (float) rnd.nextDouble(-20, 20);
            y[i] = (float) rnd.nextDouble(-1, 1);
        }
        Var p = Var.param(Tensor.of(y, N));
        p.backward(Tensor.of(x.clone(), N));
        adam = Adam.create(List.of(p), Adam.Settings.defaults().withWeightDecay(1e-3));
    }

    /** One pass over the 2^20 inputs. */
    @Benchmark
    public float[] apply() {
        switch (op) {
            case "sigmoid" -> kernels.sigmoidF32(x, 0, y, 0, N);
            case "exp" -> kernels.expF32(x, 0, y, 0, N);
            // Parameters y with gradients x in [-20, 20): the moments stay normal from call to call.
            case "adam" -> adam.step();
            default -> throw new IllegalArgumentException("op=" + op + ": use sigmoid, exp or adam");
        }
        return y;
    }
}
