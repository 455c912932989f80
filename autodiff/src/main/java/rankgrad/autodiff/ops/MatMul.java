package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;

/**
 * C = op(A) op(B) for matrices, where op(X) is X or its transpose. With dC = dL/dC:
 * dA = dC op(B)^T (stored transposed when A is used transposed) and dB = op(A)^T dC (likewise),
 * each one more GEMM on the same kernel.
 */
final class MatMul implements Op<MatMul.Saved> {
    private static final MatMul NN = new MatMul(false, false);
    private static final MatMul TN = new MatMul(true, false);
    private static final MatMul NT = new MatMul(false, true);
    private static final MatMul TT = new MatMul(true, true);

    private final boolean transA;
    private final boolean transB;

    /** What backward needs: both inputs and the problem size. */
    record Saved(Tensor a, Tensor b, int m, int n, int k) {
    }

    private MatMul(boolean transA, boolean transB) {
        this.transA = transA;
        this.transB = transB;
    }

    /** The op computing op(A) op(B). */
    public static MatMul of(boolean transA, boolean transB) {
        return transA ? (transB ? TT : TN) : (transB ? NT : NN);
    }

    @Override
    public String name() {
        return "MatMul" + (transA ? "T" : "N") + (transB ? "T" : "N");
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor a = in[0];
        Tensor b = in[1];
        if (a.rank() != 2 || b.rank() != 2) {
            throw new IllegalArgumentException(name() + " needs two matrices, got ranks " + a.rank() + " and " + b.rank());
        }
        int m = transA ? a.dim(1) : a.dim(0);
        int k = transA ? a.dim(0) : a.dim(1);
        int kb = transB ? b.dim(1) : b.dim(0);
        int n = transB ? b.dim(0) : b.dim(1);
        if (k != kb) {
            throw new IllegalArgumentException(name() + ": inner dimensions differ, " + m + "x" + k + " times " + kb + "x" + n);
        }
        return Op.result(gemm(transA, transB, m, n, k, a, b), new Saved(a, b, m, n, k));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        Tensor da = null;
        Tensor db = null;
        if (needs[0]) {
            da = transA ? gemm(transB, true, s.k(), s.m(), s.n(), s.b(), g) : gemm(false, !transB, s.m(), s.k(), s.n(), g, s.b());
        }
        if (needs[1]) {
            db = transB ? gemm(true, transA, s.n(), s.k(), s.m(), g, s.a()) : gemm(!transA, false, s.k(), s.n(), s.m(), s.a(), g);
        }
        return new Tensor[] {da, db};
    }

    /** C (m x n) = op(A) op(B) with the chosen kernels. */
    static Tensor gemm(boolean ta, boolean tb, int m, int n, int k, Tensor a, Tensor b) {
        if (a.dtype() != b.dtype()) {
            throw new IllegalArgumentException("dtypes differ: " + a.dtype() + " and " + b.dtype());
        }
        Tensor c = Tensor.zeros(a.dtype(), m, n);
        if (a.dtype() == DType.F32) {
            KernelProvider.kernels().gemmF32(ta, tb, m, n, k, a.f32(), b.f32(), c.f32());
        } else {
            KernelProvider.kernels().gemmF64(ta, tb, m, n, k, a.f64(), b.f64(), c.f64());
        }
        return c;
    }
}
