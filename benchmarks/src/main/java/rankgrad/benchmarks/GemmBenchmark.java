package rankgrad.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import rankgrad.simd.Parallel;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * float32 GEMM of the Vector API kernels against the scalar reference, on the shapes of one
 * training step of the LETOR MLP (a batch of 15360 documents, 136 features, 100 hidden units),
 * forward and backward, and on 1024^3. The secondary result {@code gflop} is the rate in GFLOP/s
 * (2 m n k per product). Threads: {@code -jvmArgsPrepend -Drankgrad.threads=N};
 * {@code scripts/bench-kernels} runs 1 and 2 threads beside numpy (OpenBLAS) and PyTorch (MKL) and
 * prints the ratios.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-XX:+UseParallelGC"})
@State(Scope.Benchmark)
public class GemmBenchmark {
    /**
     * M x K x N, with :TN for dW = X^T dY and :NT for dX = dY W^T: the forward products of the two
     * hidden layers, their weight gradients and their input gradients.
     */
    @Param({"15360x136x100", "15360x100x100", "1024x1024x1024", "136x15360x100:TN", "100x15360x100:TN",
        "15360x100x136:NT", "15360x100x100:NT"})
    public String shape;

    /** vector: the Vector API kernels (required); scalar: {@code ScalarKernels}, the oracle. */
    @Param({"vector", "scalar"})
    public String impl;

    private Kernels kernels;
    private GemmShape s;
    private float[] a;
    private float[] b;
    private float[] c;

    /** Counts GFLOP done; JMH divides by the iteration time, giving GFLOP/s. */
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    @State(Scope.Thread)
    public static class Rate {
        /** GFLOP done in this iteration. */
        public double gflop;

        /** Starts each iteration's count from 0. */
        @Setup(Level.Iteration)
        public void reset() {
            gflop = 0;
        }
    }

    /** Allocates the operands with seeded uniform values in [-1, 1). */
    @Setup(Level.Trial)
    public void setUp() {
        kernels = switch (impl) {
            case "vector" -> KernelProvider.kernels();
            case "scalar" -> KernelProvider.scalar();
            default -> throw new IllegalArgumentException("impl=" + impl + ": use vector or scalar");
        };
        if (impl.equals("vector") && !kernels.name().startsWith("vector")) {
            throw new IllegalStateException("the Vector API kernels did not load: " + kernels.name());
        }
        s = GemmShape.parse(shape);
        SplittableRandom rnd = new SplittableRandom(42);
        a = uniform(rnd, s.m() * s.k());
        b = uniform(rnd, s.k() * s.n());
        c = new float[s.m() * s.n()];
        System.out.println("# " + kernels.name() + ", " + Parallel.threads() + " thread(s)");
    }

    /** One product C = op(A) op(B). */
    @Benchmark
    public float[] gemm(Rate rate) {
        kernels.gemmF32(s.transA(), s.transB(), s.m(), s.n(), s.k(), a, b, c);
        rate.gflop += s.flops() * 1e-9;
        return c;
    }

    private static float[] uniform(SplittableRandom rnd, int size) {
        float[] x = new float[size];
        for (int i = 0; i < size; i++) {
            x[i] = (float) rnd.nextDouble(-1, 1);
        }
        return x;
    }
}
