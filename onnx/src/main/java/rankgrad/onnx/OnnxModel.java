package rankgrad.onnx;

import java.util.Map;

/**
 * An ONNX model ({@code ModelProto}): one graph, the IR version and operator set it is written
 * for, who produced it, and free-form metadata.
 *
 * @param irVersion the ONNX IR version ({@code ModelProto.ir_version})
 * @param opsetVersion the version of the default ONNX operator set imported
 * @param producerName the tool that wrote the model
 * @param producerVersion its version
 * @param docString what the model computes, for people reading it
 * @param graph the graph
 * @param metadata key/value facts ({@code ModelProto.metadata_props}), in insertion order
 */
record OnnxModel(long irVersion, long opsetVersion, String producerName, String producerVersion, String docString,
        OnnxGraph graph, Map<String, String> metadata) {
}
