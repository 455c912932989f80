package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * Continuously differentiable ELU (Barron 2017; the CE5 / CE4.L networks of Yu et al. Sec. 6.2):
 * celu(x) = max(0, x) + min(0, alpha (exp(x / alpha) - 1)), with derivative 1 for x &gt; 0 and
 * exp(x / alpha) otherwise (continuous at 0, where both sides are 1).
 *
 * <p>Implementation notes: forward stores the derivative as its residual, so backward is one
 * multiply. float64 uses {@link Math#expm1}. float32 uses the exp kernel ({@link Kernels#expF32})
 * and computes alpha (e - 1): its absolute error is a few ulps of alpha, which is what float32
 * training needs, though for |x| much smaller than alpha the relative error of the (tiny) output
 * is larger than with expm1.
 */
final class Celu implements Op<Tensor> {
    private final double alpha;

    private Celu(double alpha) {
        this.alpha = alpha;
    }

    /** CELU with scale {@code alpha} &gt; 0 (PyTorch's default is 1). */
    public static Celu withAlpha(double alpha) {
        if (!(alpha > 0) || !Double.isFinite(alpha)) {
            throw new IllegalArgumentException("celu alpha must be positive and finite, got " + alpha);
        }
        return new Celu(alpha);
    }

    /** The scale alpha. */
    public double alpha() {
        return alpha;
    }

    @Override
    public String name() {
        return "Celu(" + alpha + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        Tensor y = Tensor.zerosLike(x);
        Tensor d = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] ys = y.f32();
            float[] ds = d.f32();
            float a = (float) alpha;
            float inv = (float) (1.0 / alpha);
            ElementChunks.forEach(xs.length, (from, to) -> {
                // ds holds x / alpha, then exp(x / alpha); large positive x may overflow to
                // infinity there, but those elements take the x > 0 branch below.
                k.mulScalarF32(xs, from, inv, ds, from, to - from);
                k.expF32(ds, from, ds, from, to - from);
                for (int i = from; i < to; i++) {
                    float v = xs[i];
                    float e = ds[i];
                    ys[i] = v > 0f ? v : a * (e - 1f);
                    ds[i] = v > 0f ? 1f : e;
                }
            });
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            double[] ds = d.f64();
            for (int i = 0; i < xs.length; i++) {
                double v = xs[i];
                if (v > 0) {
                    ys[i] = v;
                    ds[i] = 1.0;
                } else {
                    ys[i] = alpha * Math.expm1(v / alpha);
                    ds[i] = Math.exp(v / alpha);
                }
            }
        }
        return Op.result(y, d);
    }

    @Override
    public Tensor[] backward(Tensor derivative, Tensor g, boolean[] needs) {
        return new Tensor[] {ElementChunks.product(g, derivative)};
    }
}
