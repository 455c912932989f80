package rankgrad.onnx;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A constant tensor of the graph ({@code TensorProto} in {@code GraphProto.initializer}), its
 * elements stored row-major as little-endian IEEE 754 / two's complement bytes
 * ({@code raw_data}), as the ONNX IR specifies.
 *
 * @param name the value's name in the graph
 * @param type the element type
 * @param dims the shape; empty for a scalar
 * @param raw the elements' bytes, {@code type.bytes()} each
 */
record Initializer(String name, ElementType type, long[] dims, byte[] raw) {
    Initializer {
        dims = dims.clone();
        long count = 1;
        for (long d : dims) {
            count *= d;
        }
        if (raw.length != count * type.bytes()) {
            throw new IllegalArgumentException(name + ": " + raw.length + " bytes for " + count + " " + type + " elements");
        }
    }

    /** A float32 tensor of shape {@code dims}. */
    static Initializer floats(String name, float[] values, long... dims) {
        ByteBuffer b = buffer(values.length * 4);
        for (float v : values) {
            b.putFloat(v);
        }
        return new Initializer(name, ElementType.FLOAT, dims, b.array());
    }

    /** A float64 tensor of shape {@code dims}. */
    static Initializer doubles(String name, double[] values, long... dims) {
        ByteBuffer b = buffer(values.length * 8);
        for (double v : values) {
            b.putDouble(v);
        }
        return new Initializer(name, ElementType.DOUBLE, dims, b.array());
    }

    /** An int64 tensor of shape {@code dims}. */
    static Initializer int64s(String name, long[] values, long... dims) {
        ByteBuffer b = buffer(values.length * 8);
        for (long v : values) {
            b.putLong(v);
        }
        return new Initializer(name, ElementType.INT64, dims, b.array());
    }

    /** A bool tensor of shape {@code dims}, one byte (0 or 1) per element. */
    static Initializer bools(String name, boolean[] values, long... dims) {
        byte[] raw = new byte[values.length];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) (values[i] ? 1 : 0);
        }
        return new Initializer(name, ElementType.BOOL, dims, raw);
    }

    private static ByteBuffer buffer(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
}
