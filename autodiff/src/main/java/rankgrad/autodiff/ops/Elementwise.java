package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/** The broadcasting loops shared by the two binary primitives, {@link Add} and {@link Mul}. */
final class Elementwise {

    /** What a binary op keeps for backward: the alignment and its two inputs. */
    record Saved(Broadcast bc, Tensor a, Tensor b) {
    }

    private Elementwise() {
    }

    /** a + b, or a * b when {@code multiply}, row by row so unit-stride rows run on the kernels. */
    static Tensor binary(Tensor a, Tensor b, Broadcast bc, boolean multiply) {
        if (a.dtype() != b.dtype()) {
            throw new IllegalArgumentException("dtypes differ: " + a.dtype() + " and " + b.dtype());
        }
        int r = bc.rows();
        int c = bc.cols();
        Tensor out = Tensor.zeros(a.dtype(), bc.shape());
        if (a.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] x = a.f32();
            float[] y = b.f32();
            float[] o = out.f32();
            for (int i = 0; i < r; i++) {
                int xo = bc.a().rowOffset(i, c);
                int yo = bc.b().rowOffset(i, c);
                boolean xs = bc.a().unitStride();
                boolean ys = bc.b().unitStride();
                if (xs && ys) {
                    if (multiply) {
                        k.mulF32(x, xo, y, yo, o, i * c, c);
                    } else {
                        k.addF32(x, xo, y, yo, o, i * c, c);
                    }
                } else if (xs || ys) {
                    float[] vec = xs ? x : y;
                    int vo = xs ? xo : yo;
                    float s = xs ? y[yo] : x[xo];
                    if (multiply) {
                        k.mulScalarF32(vec, vo, s, o, i * c, c);
                    } else {
                        k.addScalarF32(vec, vo, s, o, i * c, c);
                    }
                } else {
                    float v = multiply ? x[xo] * y[yo] : x[xo] + y[yo];
                    java.util.Arrays.fill(o, i * c, i * c + c, v);
                }
            }
        } else {
            double[] x = a.f64();
            double[] y = b.f64();
            double[] o = out.f64();
            for (int i = 0; i < r; i++) {
                for (int j = 0; j < c; j++) {
                    double u = x[bc.a().index(i, j, c)];
                    double v = y[bc.b().index(i, j, c)];
                    o[i * c + j] = multiply ? u * v : u + v;
                }
            }
        }
        return out;
    }
}
