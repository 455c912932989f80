package rankgrad.autodiff;

import java.util.Arrays;
import java.util.Objects;

/**
 * A dense array of float32 or float64 values of rank 0 (scalar), 1 (vector) or 2 (matrix),
 * stored row-major in a plain Java array.
 *
 * <p>Ops never write to their input tensors; they allocate a new output. The backing array is
 * exposed ({@link #f32()}, {@link #f64()}) so that kernels and optimizers can work on it without
 * copies: only the owner of a tensor (an optimizer updating its parameters, an op filling the
 * output it just allocated) may write to it.
 *
 * <p>Shape conventions: a rank-1 tensor of length n behaves as a 1 x n row in broadcasting and in
 * {@link #rows()} / {@link #cols()}; a scalar is 1 x 1.
 *
 * <p>Thread-safety: immutable by convention; concurrent readers are safe.
 */
public final class Tensor {
    private final DType dtype;
    private final int[] shape;
    private final float[] f32;
    private final double[] f64;

    private Tensor(DType dtype, int[] shape, float[] f32, double[] f64) {
        this.dtype = dtype;
        this.shape = shape;
        this.f32 = f32;
        this.f64 = f64;
    }

    /** Wraps {@code data} (not copied) as a tensor of the given shape. */
    public static Tensor of(float[] data, int... shape) {
        int[] s = checkShape(shape, data.length);
        return new Tensor(DType.F32, s, data, null);
    }

    /** Wraps {@code data} (not copied) as a tensor of the given shape. */
    public static Tensor of(double[] data, int... shape) {
        int[] s = checkShape(shape, data.length);
        return new Tensor(DType.F64, s, null, data);
    }

    /** A rank-1 float32 tensor holding a copy of {@code values}. */
    public static Tensor vector(float... values) {
        return of(values.clone(), values.length);
    }

    /** A rank-1 float64 tensor holding a copy of {@code values}. */
    public static Tensor vector(double... values) {
        return of(values.clone(), values.length);
    }

    /** A rank-2 tensor holding a copy of the rows (which must have equal lengths). */
    public static Tensor matrix(DType dtype, double[][] rows) {
        int r = rows.length;
        int c = r == 0 ? 0 : rows[0].length;
        Tensor t = zeros(dtype, r, c);
        for (int i = 0; i < r; i++) {
            if (rows[i].length != c) {
                throw new IllegalArgumentException("row " + i + " has " + rows[i].length + " values, expected " + c);
            }
            for (int j = 0; j < c; j++) {
                t.set(i * c + j, rows[i][j]);
            }
        }
        return t;
    }

    /** A rank-0 tensor. */
    public static Tensor scalar(DType dtype, double value) {
        return full(dtype, value);
    }

    /** A tensor of zeros. */
    public static Tensor zeros(DType dtype, int... shape) {
        int n = sizeOf(shape);
        return dtype == DType.F32 ? of(new float[n], shape) : of(new double[n], shape);
    }

    /** A tensor with every element equal to {@code value}. */
    public static Tensor full(DType dtype, double value, int... shape) {
        Tensor t = zeros(dtype, shape);
        if (dtype == DType.F32) {
            Arrays.fill(t.f32, (float) value);
        } else {
            Arrays.fill(t.f64, value);
        }
        return t;
    }

    /** A tensor of zeros with the dtype and shape of {@code like}. */
    public static Tensor zerosLike(Tensor like) {
        return zeros(like.dtype, like.shape);
    }

    public DType dtype() {
        return dtype;
    }

    /** A copy of the shape. */
    public int[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public int dim(int axis) {
        return shape[axis];
    }

    /** Number of elements. */
    public int size() {
        return f32 != null ? f32.length : f64.length;
    }

    /** Rows when viewed as a matrix: {@code shape[0]} for rank 2, else 1. */
    public int rows() {
        return shape.length == 2 ? shape[0] : 1;
    }

    /** Columns when viewed as a matrix: the last dimension, or 1 for a scalar. */
    public int cols() {
        return shape.length == 0 ? 1 : shape[shape.length - 1];
    }

    /** The backing float32 array; throws if this tensor is float64. */
    public float[] f32() {
        if (f32 == null) {
            throw new IllegalStateException("tensor is " + dtype + ", not F32");
        }
        return f32;
    }

    /** The backing float64 array; throws if this tensor is float32. */
    public double[] f64() {
        if (f64 == null) {
            throw new IllegalStateException("tensor is " + dtype + ", not F64");
        }
        return f64;
    }

    /** Element at flat (row-major) index {@code i}, widened to double. */
    public double get(int i) {
        return f32 != null ? f32[i] : f64[i];
    }

    /** Element at row {@code r}, column {@code c} of the matrix view. */
    public double get(int r, int c) {
        return get(r * cols() + c);
    }

    /** The value of a tensor with exactly one element. */
    public double item() {
        if (size() != 1) {
            throw new IllegalStateException("item() needs one element, tensor has shape " + Arrays.toString(shape));
        }
        return get(0);
    }

    /** Writes element {@code i}; only for the owner of a freshly made tensor. */
    public void set(int i, double value) {
        if (f32 != null) {
            f32[i] = (float) value;
        } else {
            f64[i] = value;
        }
    }

    /** A new tensor with the same shape and values converted to {@code target}. */
    public Tensor to(DType target) {
        if (target == dtype) {
            return copy();
        }
        // One typed loop per direction (C2 vectorizes it), not get/set per element: attention
        // converts every op's inputs and outputs, hundreds of thousands of values per step.
        if (f32 != null) {
            return of(toDoubleArray(), shape);
        }
        float[] out = new float[f64.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) f64[i];
        }
        return of(out, shape);
    }

    /** A deep copy. */
    public Tensor copy() {
        return f32 != null ? of(f32.clone(), shape) : of(f64.clone(), shape);
    }

    /** The same data (shared, not copied) seen with another shape of equal size. */
    public Tensor reshape(int... newShape) {
        return f32 != null ? of(f32, newShape) : of(f64, newShape);
    }

    /** The values as a new {@code double[]}. */
    public double[] toDoubleArray() {
        if (f64 != null) {
            return f64.clone();
        }
        double[] out = new double[f32.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = f32[i];
        }
        return out;
    }

    public boolean sameShape(Tensor other) {
        return Arrays.equals(shape, other.shape);
    }

    /** Throws {@link IllegalArgumentException} naming {@code what} if any element is NaN or infinite. */
    public Tensor requireFinite(String what) {
        for (int i = 0; i < size(); i++) {
            double v = get(i);
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(what + " has a non-finite value " + v + " at index " + i
                        + " (shape " + Arrays.toString(shape) + ")");
            }
        }
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Tensor").append(dtype).append(Arrays.toString(shape)).append('[');
        int n = Math.min(size(), 8);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ", ").append(get(i));
        }
        return sb.append(size() > n ? ", ...]" : "]").toString();
    }

    static int sizeOf(int[] shape) {
        long n = 1;
        for (int d : shape) {
            if (d < 0) {
                throw new IllegalArgumentException("negative dimension in shape " + Arrays.toString(shape));
            }
            n *= d;
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has more than 2^31-1 elements");
        }
        return (int) n;
    }

    private static int[] checkShape(int[] shape, int length) {
        Objects.requireNonNull(shape, "shape");
        if (shape.length > 2) {
            throw new IllegalArgumentException("rank " + shape.length + " is not supported (0..2): " + Arrays.toString(shape));
        }
        if (sizeOf(shape) != length) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " needs " + sizeOf(shape)
                    + " elements, data has " + length);
        }
        return shape.clone();
    }
}
