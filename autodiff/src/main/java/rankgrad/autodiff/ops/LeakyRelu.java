package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * y = x for x &gt; 0, slope * x otherwise; dL/dx = dL/dy * (x &gt; 0 ? 1 : slope). At x = 0 the
 * derivative taken is {@code slope}, as PyTorch's {@code leaky_relu}.
 */
final class LeakyRelu implements Op<Tensor> {
    private final double slope;

    private LeakyRelu(double slope) {
        this.slope = slope;
    }

    /** Leaky ReLU with the given negative-side slope (PyTorch's default is 0.01). */
    public static LeakyRelu withSlope(double slope) {
        if (!Double.isFinite(slope)) {
            throw new IllegalArgumentException("leaky relu slope must be finite, got " + slope);
        }
        return new LeakyRelu(slope);
    }

    /** The negative-side slope. */
    public double slope() {
        return slope;
    }

    @Override
    public String name() {
        return "LeakyRelu(" + slope + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        Tensor y = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            float[] xs = x.f32();
            float[] ys = y.f32();
            float s = (float) slope;
            ElementChunks.forEach(xs.length, (from, to) -> {
                for (int i = from; i < to; i++) {
                    float v = xs[i];
                    ys[i] = v > 0f ? v : s * v;
                }
            });
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            for (int i = 0; i < xs.length; i++) {
                ys[i] = xs[i] > 0 ? xs[i] : slope * xs[i];
            }
        }
        return Op.result(y, x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        Tensor dx = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            float[] xs = x.f32();
            float[] gs = g.f32();
            float[] ds = dx.f32();
            float s = (float) slope;
            ElementChunks.forEach(xs.length, (from, to) -> {
                for (int i = from; i < to; i++) {
                    ds[i] = xs[i] > 0f ? gs[i] : s * gs[i];
                }
            });
        } else {
            double[] xs = x.f64();
            double[] gs = g.f64();
            double[] ds = dx.f64();
            for (int i = 0; i < xs.length; i++) {
                ds[i] = xs[i] > 0 ? gs[i] : slope * gs[i];
            }
        }
        return new Tensor[] {dx};
    }
}
