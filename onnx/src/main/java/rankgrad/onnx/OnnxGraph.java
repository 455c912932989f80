package rankgrad.onnx;

import java.util.List;

/**
 * A computation graph ({@code GraphProto}): nodes in topological order, constant tensors, and the
 * typed inputs and outputs.
 *
 * @param name the graph's name
 * @param docString what the graph computes, for people reading the model
 * @param nodes the operators, each after the ones whose outputs it reads
 * @param initializers the constant tensors (weights, normalization statistics)
 * @param inputs the values the caller feeds
 * @param outputs the values the caller reads
 */
record OnnxGraph(String name, String docString, List<Node> nodes, List<Initializer> initializers, List<ValueInfo> inputs,
        List<ValueInfo> outputs) {
    OnnxGraph {
        nodes = List.copyOf(nodes);
        initializers = List.copyOf(initializers);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }
}
