package rankgrad.onnx;

/** A node attribute ({@code AttributeProto}): the kinds the export uses. */
sealed interface Attribute {
    /** The attribute's name, e.g. "alpha". */
    String name();

    /** A float attribute ({@code AttributeType.FLOAT}). */
    record FloatValue(String name, float value) implements Attribute {
    }

    /** An integer attribute ({@code AttributeType.INT}). */
    record IntValue(String name, long value) implements Attribute {
    }

    /** A list of integers ({@code AttributeType.INTS}). */
    record IntsValue(String name, long[] values) implements Attribute {
        public IntsValue {
            values = values.clone();
        }
    }
}
