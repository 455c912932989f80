package rankgrad.onnx;

import java.util.List;

/**
 * One operator of the graph ({@code NodeProto}), from the default ONNX domain.
 *
 * @param name the node's name, unique in the graph
 * @param opType the operator, e.g. "Gemm"
 * @param inputs names of the values it reads, in the operator's order
 * @param outputs names of the values it produces
 * @param attributes the operator's attributes
 */
record Node(String name, String opType, List<String> inputs, List<String> outputs, List<Attribute> attributes) {
    Node {
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
        attributes = List.copyOf(attributes);
    }
}
