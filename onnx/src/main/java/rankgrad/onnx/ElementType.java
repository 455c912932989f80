package rankgrad.onnx;

/**
 * The ONNX element types the export uses, with their codes ({@code TensorProto.DataType} in
 * {@code onnx.proto}) and sizes in bytes as stored in {@code raw_data}.
 */
enum ElementType {
    FLOAT(1, 4),
    INT64(7, 8),
    BOOL(9, 1),
    DOUBLE(11, 8);

    private final int code;
    private final int bytes;

    ElementType(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    /** The {@code TensorProto.DataType} value. */
    int code() {
        return code;
    }

    /** Bytes per element in {@code raw_data}. */
    int bytes() {
        return bytes;
    }
}
