package rankgrad.nn;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.simd.Parallel;

/**
 * Elementwise activation functions as modules without parameters. The closed set the model files
 * and the Solr export know about; each is a record, so it carries its own setting (slope, alpha)
 * and compares by value.
 *
 * <pre>{@code
 * Activation a = Activation.celu(1.0);
 * Var h = a.forward(x);
 * }</pre>
 */
public sealed interface Activation extends Layer {

    /** A short lower-case name: identity, relu, leaky_relu, celu, tanh or sigmoid. */
    String kind();

    @Override
    default Map<String, Var> namedParameters() {
        return Map.of();
    }

    /** f(x) = x. */
    static Activation identity() {
        return new Identity();
    }

    /** f(x) = max(x, 0). */
    static Activation relu() {
        return new Relu();
    }

    /** f(x) = x for x &gt; 0, slope * x otherwise. */
    static Activation leakyRelu(double slope) {
        return new LeakyRelu(slope);
    }

    /** f(x) = max(0, x) + min(0, alpha (exp(x / alpha) - 1)) (Yu et al.'s CE networks use alpha = 1). */
    static Activation celu(double alpha) {
        return new Celu(alpha);
    }

    /** f(x) = tanh(x). */
    static Activation tanh() {
        return new Tanh();
    }

    /** f(x) = 1 / (1 + exp(-x)). */
    static Activation sigmoid() {
        return new Sigmoid();
    }

    /** f(x) = x. */
    record Identity() implements Activation {
        @Override
        public Var forward(Var x) {
            return x;
        }

        @Override
        public String kind() {
            return "identity";
        }
    }

    /** f(x) = max(x, 0). */
    record Relu() implements Activation {
        @Override
        public Var forward(Var x) {
            return Ops.relu(x);
        }

        /**
         * The float32 value max(x, 0) with the same bits as {@link #forward}, or null when {@code x}
         * holds a NaN or an infinity (which the ReLU would hide): for scorers, which refuse a broken
         * model instead of ranking by garbage. The check runs inside the ReLU's own pass.
         */
        public Tensor evaluateOrNull(Tensor x) {
            float[] xs = x.f32();
            Tensor y = Tensor.zerosLike(x);
            float[] ys = y.f32();
            Kernels k = KernelProvider.kernels();
            int n = xs.length;
            // Contiguous ranges of the op's own size (32 Ki floats); each element is computed on its
            // own, so the partition changes the speed, never the bits.
            int tasks = Parallel.tasksFor(n, 1 << 15);
            int per = (n + tasks - 1) / tasks;
            AtomicBoolean bad = new AtomicBoolean();
            Parallel.forEach(tasks, t -> {
                int from = t * per;
                int to = Math.min(n, from + per);
                if (from >= to) {
                    return;
                }
                k.reluF32(xs, from, ys, from, to - from);
                // Math.max and Math.abs keep a NaN, so the largest magnitude is finite exactly when
                // every value is; both are reductions and lane operations the JIT vectorizes. The
                // range is read right after the kernel did, while it is in cache.
                float max = 0f;
                for (int i = from; i < to; i++) {
                    max = Math.max(max, Math.abs(xs[i]));
                }
                if (!(max <= Float.MAX_VALUE)) {
                    bad.set(true);
                }
            });
            return bad.get() ? null : y;
        }

        @Override
        public String kind() {
            return "relu";
        }
    }

    /** f(x) = x for x &gt; 0, slope * x otherwise. */
    record LeakyRelu(double slope) implements Activation {
        public LeakyRelu {
            if (!Double.isFinite(slope)) {
                throw new IllegalArgumentException("leaky relu slope must be finite, got " + slope);
            }
        }

        @Override
        public Var forward(Var x) {
            return Ops.leakyRelu(x, slope);
        }

        @Override
        public String kind() {
            return "leaky_relu";
        }
    }

    /** f(x) = max(0, x) + min(0, alpha (exp(x / alpha) - 1)). */
    record Celu(double alpha) implements Activation {
        public Celu {
            if (!(alpha > 0) || !Double.isFinite(alpha)) {
                throw new IllegalArgumentException("celu alpha must be positive and finite, got " + alpha);
            }
        }

        @Override
        public Var forward(Var x) {
            return Ops.celu(x, alpha);
        }

        @Override
        public String kind() {
            return "celu";
        }
    }

    /** f(x) = tanh(x). */
    record Tanh() implements Activation {
        @Override
        public Var forward(Var x) {
            return Ops.tanh(x);
        }

        @Override
        public String kind() {
            return "tanh";
        }
    }

    /** f(x) = 1 / (1 + exp(-x)). */
    record Sigmoid() implements Activation {
        @Override
        public Var forward(Var x) {
            return Ops.sigmoid(x);
        }

        @Override
        public String kind() {
            return "sigmoid";
        }
    }
}
