package rankgrad.autodiff;

/**
 * Element type of a {@link Tensor}: float32 for training (the SIMD-fast path), float64 for
 * gradient checks and reference computations.
 */
public enum DType {
    /** 32-bit IEEE 754, stored in a {@code float[]}. */
    F32,
    /** 64-bit IEEE 754, stored in a {@code double[]}. */
    F64
}
