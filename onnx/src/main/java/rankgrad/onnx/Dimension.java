package rankgrad.onnx;

/**
 * One dimension of a graph input or output ({@code TensorShapeProto.Dimension}): a fixed size or a
 * named size that the caller chooses at run time.
 *
 * @param value the size, when {@code param} is null
 * @param param the symbolic name, or null for a fixed size
 */
record Dimension(long value, String param) {
    static Dimension fixed(long value) {
        return new Dimension(value, null);
    }

    static Dimension named(String param) {
        return new Dimension(0, param);
    }
}
