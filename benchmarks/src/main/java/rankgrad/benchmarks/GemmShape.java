package rankgrad.benchmarks;

/**
 * A GEMM problem as the benchmarks and {@code benchmarks/reference/numpy_gemm.py} name it:
 * {@code MxKxN} for C (M x N) = A (M x K) B (K x N), optionally followed by {@code :TN}, {@code :NT}
 * or {@code :TT} when A or B is stored transposed (the backward products dW = X^T dY and
 * dX = dY W^T of a linear layer).
 *
 * @param m rows of C
 * @param k the inner dimension
 * @param n columns of C
 * @param transA A is stored K x M
 * @param transB B is stored N x K
 */
public record GemmShape(int m, int k, int n, boolean transA, boolean transB) {

    /** Parses {@code MxKxN[:XY]} with X, Y in {N, T}. */
    public static GemmShape parse(String spec) {
        String[] parts = spec.split(":");
        String[] dims = parts[0].split("x");
        String trans = parts.length > 1 ? parts[1] : "NN";
        if (dims.length != 3 || parts.length > 2 || !trans.matches("[NT][NT]")) {
            throw new IllegalArgumentException("GEMM shape '" + spec + "': write MxKxN or MxKxN:XY with X, Y in {N, T}");
        }
        return new GemmShape(Integer.parseInt(dims[0]), Integer.parseInt(dims[1]), Integer.parseInt(dims[2]),
                trans.charAt(0) == 'T', trans.charAt(1) == 'T');
    }

    /** Floating-point operations of one product: 2 M N K. */
    public double flops() {
        return 2.0 * m * n * k;
    }
}
