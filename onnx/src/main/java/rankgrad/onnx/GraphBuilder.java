package rankgrad.onnx;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects a graph's nodes, constants, inputs and outputs in order, and checks that every value
 * name is defined once and every node reads only values defined before it (so the node list is in
 * the topological order ONNX requires).
 */
final class GraphBuilder {
    private final List<Node> nodes = new ArrayList<>();
    private final List<Initializer> initializers = new ArrayList<>();
    private final List<ValueInfo> inputs = new ArrayList<>();
    private final List<ValueInfo> outputs = new ArrayList<>();
    private final Set<String> defined = new HashSet<>();

    /** Declares a graph input and returns its name. */
    String input(ValueInfo input) {
        define(input.name());
        inputs.add(input);
        return input.name();
    }

    /** Adds a constant tensor and returns its name. */
    String constant(Initializer tensor) {
        define(tensor.name());
        initializers.add(tensor);
        return tensor.name();
    }

    /**
     * Adds a node with one output named {@code output} (also the node's name) and returns that
     * name.
     */
    String node(String opType, String output, List<String> in, Attribute... attributes) {
        for (String name : in) {
            if (!defined.contains(name)) {
                throw new IllegalStateException(opType + " node " + output + " reads " + name + ", which is not defined yet");
            }
        }
        define(output);
        nodes.add(new Node(output, opType, in, List.of(output), List.of(attributes)));
        return output;
    }

    /** Declares a defined value as a graph output. */
    void output(ValueInfo output) {
        if (!defined.contains(output.name())) {
            throw new IllegalStateException("output " + output.name() + " is not defined");
        }
        outputs.add(output);
    }

    OnnxGraph build(String name, String docString) {
        return new OnnxGraph(name, docString, nodes, initializers, inputs, outputs);
    }

    private void define(String name) {
        if (!defined.add(name)) {
            throw new IllegalStateException("value " + name + " is defined twice");
        }
    }
}
