package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Parallel;

/**
 * Inverted dropout with a given mask (Srivastava et al., JMLR 2014, Sec. 10, scaled at training
 * time as PyTorch's {@code nn.Dropout}): y_i = x_i m_i / (1 - p), with m_i in {0, 1} the keep mask
 * and p the rate; dL/dx_i = dL/dy_i m_i / (1 - p). The expectation of y over random masks with
 * P(m_i = 1) = 1 - p is x, so evaluation uses the identity.
 *
 * <p>The mask is fixed when the op is made (drawn by {@link rankgrad.nn.Dropout} from a
 * seed and the training step), so the op is a deterministic function of x: the gradient check
 * runs on it as on any other op. float32 multiplies by the float32 scale (float) (1 / (1 - p)),
 * float64 by the double scale; this loop is the scalar reference (no vector kernel: the op costs
 * one pass over memory), run on parallel chunks of {@value #GRAIN} elements (each element alone:
 * the same bits for any thread count); on one thread it took a fifth of a training step at rate 0.1.
 */
final class Dropout implements Op<Void> {
    /** Elements per parallel task. */
    private static final int GRAIN = 1 << 15;
    private final boolean[] keep;
    private final double scale;

    private Dropout(boolean[] keep, double rate) {
        this.keep = keep;
        this.scale = 1.0 / (1.0 - rate);
    }

    /**
     * The op for inputs of {@code keep.length} elements: element i is kept (and scaled by
     * 1 / (1 - rate)) where {@code keep[i]}, zeroed elsewhere.
     *
     * @throws IllegalArgumentException for a rate outside [0, 1)
     */
    public static Dropout withMask(boolean[] keep, double rate) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("the dropout rate must be in [0, 1), got " + rate);
        }
        return new Dropout(keep.clone(), rate);
    }

    @Override
    public Result<Void> forward(Tensor... in) {
        return Op.result(masked(in[0]), null);
    }

    @Override
    public Tensor[] backward(Void residuals, Tensor g, boolean[] needs) {
        return new Tensor[] {needs[0] ? masked(g) : null};
    }

    /** t_i m_i / (1 - p), in t's dtype and shape. */
    private Tensor masked(Tensor t) {
        if (t.size() != keep.length) {
            throw new IllegalArgumentException("dropout mask has " + keep.length + " elements, the input " + t.size());
        }
        Tensor out = Tensor.zerosLike(t);
        int n = keep.length;
        Parallel.forEach(Parallel.tasksFor(n, GRAIN), task -> {
            int from = task * GRAIN;
            int to = Math.min(n, from + GRAIN);
            if (t.dtype() == DType.F32) {
                float s = (float) scale;
                float[] x = t.f32();
                float[] o = out.f32();
                for (int i = from; i < to; i++) {
                    o[i] = keep[i] ? x[i] * s : 0f;
                }
            } else {
                double[] x = t.f64();
                double[] o = out.f64();
                for (int i = from; i < to; i++) {
                    o[i] = keep[i] ? x[i] * scale : 0.0;
                }
            }
        });
        return out;
    }
}
