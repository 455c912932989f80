package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y = x^p elementwise for a constant exponent p; dL/dx = dL/dy * p * x^(p-1).
 *
 * <p>p = 2, -1 and 0.5 are computed as x*x, 1/x and sqrt(x), which are correctly rounded (so
 * {@code div(a, b) = a * pow(b, -1)} is as accurate as a division); other exponents use
 * {@link Math#pow}. As there, a negative x with a non-integer p gives NaN.
 */
final class Pow implements Op<Tensor> {
    private final double p;

    private Pow(double p) {
        this.p = p;
    }

    /** The op x -> x^p. */
    public static Pow of(double p) {
        if (!Double.isFinite(p)) {
            throw new IllegalArgumentException("pow exponent must be finite, got " + p);
        }
        return new Pow(p);
    }

    @Override
    public String name() {
        return "Pow(" + p + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        if (p == 2 && x.dtype() == DType.F32) {
            // The square, common in losses, on the kernel: a float product is correctly rounded,
            // so this equals the widened path bit for bit.
            Tensor y = Tensor.zerosLike(x);
            KernelProvider.kernels().mulF32(x.f32(), 0, x.f32(), 0, y.f32(), 0, x.size());
            return Op.result(y, x);
        }
        return Op.result(Unary.map(x, v -> pow(v, p)), x);
    }

    @Override
    public Tensor[] backward(Tensor x, Tensor g, boolean[] needs) {
        if (p == 2 && x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            Tensor dx = Tensor.zerosLike(x);
            k.mulF32(g.f32(), 0, x.f32(), 0, dx.f32(), 0, x.size());
            k.mulScalarF32(dx.f32(), 0, 2f, dx.f32(), 0, x.size());
            return new Tensor[] {dx};
        }
        return new Tensor[] {Unary.zip(g, x, (gi, xi) -> gi * p * pow(xi, p - 1))};
    }

    private static double pow(double v, double p) {
        if (p == 2) {
            return v * v;
        }
        if (p == 1) {
            return v;
        }
        if (p == 0) {
            return 1;
        }
        if (p == -1) {
            return 1 / v;
        }
        if (p == 0.5) {
            return Math.sqrt(v);
        }
        return Math.pow(v, p);
    }
}
