package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * Selection by integer indices: y[i] = x[index[i]], where an item is a row of a matrix (y is
 * index.length x cols) or an element of a vector (y has index.length elements). Indices may
 * repeat and come in any order.
 *
 * <p>The backward scatters with accumulation: dL/dx[r] = sum over i with index[i] = r of dL/dy[i],
 * so an item selected twice gets both gradients and an item never selected gets zero.
 */
final class Gather implements Op<Tensor> {
    private final int[] index;

    private Gather(int[] index) {
        this.index = index;
    }

    /** The op selecting items {@code index} (copied) of its input. */
    public static Gather of(int... index) {
        return new Gather(index.clone());
    }

    @Override
    public String name() {
        return "Gather" + (index.length <= 8 ? Arrays.toString(index) : "[" + index.length + " indices]");
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.rank() == 0) {
            throw new IllegalArgumentException(name() + " needs a vector or a matrix, got a scalar");
        }
        int items = x.rank() == 2 ? x.rows() : x.size();
        int width = x.rank() == 2 ? x.cols() : 1;
        for (int i = 0; i < index.length; i++) {
            if (index[i] < 0 || index[i] >= items) {
                throw new IndexOutOfBoundsException("index[" + i + "] = " + index[i] + " is outside 0.." + (items - 1)
                        + " (" + (x.rank() == 2 ? "rows of a " + x.rows() + " x " + x.cols() + " matrix" : "elements of a vector")
                        + ")");
            }
        }
        Tensor y = Tensor.zeros(x.dtype(), x.rank() == 2 ? new int[] {index.length, width} : new int[] {index.length});
        for (int i = 0; i < index.length; i++) {
            Blocks.copy(x, index[i] * width, y, i * width, width);
        }
        return Op.result(y, x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        int width = x.rank() == 2 ? x.cols() : 1;
        Tensor dx = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] d = dx.f32();
            float[] gs = g.f32();
            for (int i = 0; i < index.length; i++) {
                int o = index[i] * width;
                k.addF32(d, o, gs, i * width, d, o, width);
            }
        } else {
            double[] d = dx.f64();
            double[] gs = g.f64();
            for (int i = 0; i < index.length; i++) {
                int o = index[i] * width;
                for (int j = 0; j < width; j++) {
                    d[o + j] += gs[i * width + j];
                }
            }
        }
        return new Tensor[] {dx};
    }
}
