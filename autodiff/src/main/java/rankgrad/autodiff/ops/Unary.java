package rankgrad.autodiff.ops;

import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/**
 * The elementwise loops of the unary primitives. {@link #map} and {@link #zip} serve those without
 * a kernel: float32 values are widened, computed in double and rounded once, so each result is
 * within one float32 rounding of the exact function value. {@link #mapF32} runs a float32 kernel
 * over parallel chunks.
 */
final class Unary {

    private Unary() {
    }

    /** out[i] = f(x[i]), in x's dtype and shape. */
    static Tensor map(Tensor x, DoubleUnaryOperator f) {
        Tensor out = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            float[] xs = x.f32();
            float[] o = out.f32();
            for (int i = 0; i < xs.length; i++) {
                o[i] = (float) f.applyAsDouble(xs[i]);
            }
        } else {
            double[] xs = x.f64();
            double[] o = out.f64();
            for (int i = 0; i < xs.length; i++) {
                o[i] = f.applyAsDouble(xs[i]);
            }
        }
        return out;
    }

    /** A float32 elementwise kernel such as {@code Kernels::sigmoidF32}. */
    @FunctionalInterface
    interface F32Kernel {
        void apply(float[] a, int aOff, float[] out, int outOff, int n);
    }

    /** out = kernel(x) for a float32 tensor, in chunks spread over the worker threads. */
    static Tensor mapF32(Tensor x, F32Kernel kernel) {
        Tensor out = Tensor.zerosLike(x);
        float[] xs = x.f32();
        float[] o = out.f32();
        ElementChunks.forEach(xs.length, (from, to) -> kernel.apply(xs, from, o, from, to - from));
        return out;
    }

    /** out[i] = f(g[i], x[i]) for two tensors of one shape and dtype: a backward rule g * f'(x). */
    static Tensor zip(Tensor g, Tensor x, DoubleBinaryOperator f) {
        Tensor out = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            float[] gs = g.f32();
            float[] xs = x.f32();
            float[] o = out.f32();
            for (int i = 0; i < xs.length; i++) {
                o[i] = (float) f.applyAsDouble(gs[i], xs[i]);
            }
        } else {
            double[] gs = g.f64();
            double[] xs = x.f64();
            double[] o = out.f64();
            for (int i = 0; i < xs.length; i++) {
                o[i] = f.applyAsDouble(gs[i], xs[i]);
            }
        }
        return out;
    }
}
