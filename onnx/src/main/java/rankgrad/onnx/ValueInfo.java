package rankgrad.onnx;

import java.util.List;

/**
 * A graph input or output with its tensor type ({@code ValueInfoProto}).
 *
 * @param name the value's name
 * @param type its element type
 * @param shape its dimensions
 * @param docString what it holds, for people reading the model
 */
record ValueInfo(String name, ElementType type, List<Dimension> shape, String docString) {
    ValueInfo {
        shape = List.copyOf(shape);
    }
}
