package rankgrad.onnx;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Serializes an {@link OnnxModel} in the protobuf wire format of {@code onnx.proto}, with
 * protobuf-java's {@link CodedOutputStream}. The field numbers below are those of the ONNX IR
 * specification; each message is encoded into its own buffer and embedded length-delimited in its
 * parent. Fields are written in a fixed order, so the same model always gives the same bytes.
 */
final class ProtoEncoder {
    // ModelProto
    private static final int MODEL_IR_VERSION = 1;
    private static final int MODEL_PRODUCER_NAME = 2;
    private static final int MODEL_PRODUCER_VERSION = 3;
    private static final int MODEL_DOC_STRING = 6;
    private static final int MODEL_GRAPH = 7;
    private static final int MODEL_OPSET_IMPORT = 8;
    private static final int MODEL_METADATA_PROPS = 14;
    // OperatorSetIdProto
    private static final int OPSET_DOMAIN = 1;
    private static final int OPSET_VERSION = 2;
    // StringStringEntryProto
    private static final int ENTRY_KEY = 1;
    private static final int ENTRY_VALUE = 2;
    // GraphProto
    private static final int GRAPH_NODE = 1;
    private static final int GRAPH_NAME = 2;
    private static final int GRAPH_INITIALIZER = 5;
    private static final int GRAPH_DOC_STRING = 10;
    private static final int GRAPH_INPUT = 11;
    private static final int GRAPH_OUTPUT = 12;
    // NodeProto
    private static final int NODE_INPUT = 1;
    private static final int NODE_OUTPUT = 2;
    private static final int NODE_NAME = 3;
    private static final int NODE_OP_TYPE = 4;
    private static final int NODE_ATTRIBUTE = 5;
    private static final int NODE_DOMAIN = 7;
    // AttributeProto and its AttributeType values
    private static final int ATTRIBUTE_NAME = 1;
    private static final int ATTRIBUTE_F = 2;
    private static final int ATTRIBUTE_I = 3;
    private static final int ATTRIBUTE_INTS = 8;
    private static final int ATTRIBUTE_TYPE = 20;
    private static final int TYPE_FLOAT = 1;
    private static final int TYPE_INT = 2;
    private static final int TYPE_INTS = 7;
    // TensorProto
    private static final int TENSOR_DIMS = 1;
    private static final int TENSOR_DATA_TYPE = 2;
    private static final int TENSOR_NAME = 8;
    private static final int TENSOR_RAW_DATA = 9;
    // ValueInfoProto, TypeProto, TypeProto.Tensor, TensorShapeProto, TensorShapeProto.Dimension
    private static final int VALUE_INFO_NAME = 1;
    private static final int VALUE_INFO_TYPE = 2;
    private static final int VALUE_INFO_DOC_STRING = 3;
    private static final int TYPE_TENSOR_TYPE = 1;
    private static final int TENSOR_TYPE_ELEM_TYPE = 1;
    private static final int TENSOR_TYPE_SHAPE = 2;
    private static final int SHAPE_DIM = 1;
    private static final int DIM_VALUE = 1;
    private static final int DIM_PARAM = 2;

    private ProtoEncoder() {
    }

    /** The model's bytes, as an ONNX file holds them. */
    static byte[] encode(OnnxModel model) {
        Message m = new Message()
                .int64(MODEL_IR_VERSION, model.irVersion())
                .string(MODEL_PRODUCER_NAME, model.producerName())
                .string(MODEL_PRODUCER_VERSION, model.producerVersion())
                .string(MODEL_DOC_STRING, model.docString())
                .message(MODEL_GRAPH, graph(model.graph()))
                // The default domain is the empty string; it is written out, as ONNX's own tools do.
                .message(MODEL_OPSET_IMPORT, new Message().string(OPSET_DOMAIN, "").int64(OPSET_VERSION, model.opsetVersion()));
        for (Map.Entry<String, String> e : model.metadata().entrySet()) {
            m.message(MODEL_METADATA_PROPS, new Message().string(ENTRY_KEY, e.getKey()).string(ENTRY_VALUE, e.getValue()));
        }
        return m.toByteArray();
    }

    private static Message graph(OnnxGraph g) {
        Message m = new Message();
        for (Node n : g.nodes()) {
            m.message(GRAPH_NODE, node(n));
        }
        m.string(GRAPH_NAME, g.name());
        for (Initializer t : g.initializers()) {
            m.message(GRAPH_INITIALIZER, tensor(t));
        }
        m.string(GRAPH_DOC_STRING, g.docString());
        for (ValueInfo v : g.inputs()) {
            m.message(GRAPH_INPUT, valueInfo(v));
        }
        for (ValueInfo v : g.outputs()) {
            m.message(GRAPH_OUTPUT, valueInfo(v));
        }
        return m;
    }

    private static Message node(Node n) {
        Message m = new Message();
        n.inputs().forEach(name -> m.string(NODE_INPUT, name));
        n.outputs().forEach(name -> m.string(NODE_OUTPUT, name));
        m.string(NODE_NAME, n.name()).string(NODE_OP_TYPE, n.opType());
        n.attributes().forEach(a -> m.message(NODE_ATTRIBUTE, attribute(a)));
        return m.string(NODE_DOMAIN, "");
    }

    private static Message attribute(Attribute a) {
        Message m = new Message().string(ATTRIBUTE_NAME, a.name());
        switch (a) {
            case Attribute.FloatValue f -> m.float32(ATTRIBUTE_F, f.value()).int32(ATTRIBUTE_TYPE, TYPE_FLOAT);
            case Attribute.IntValue i -> m.int64(ATTRIBUTE_I, i.value()).int32(ATTRIBUTE_TYPE, TYPE_INT);
            case Attribute.IntsValue l -> {
                for (long v : l.values()) {
                    m.int64(ATTRIBUTE_INTS, v);
                }
                m.int32(ATTRIBUTE_TYPE, TYPE_INTS);
            }
        }
        return m;
    }

    private static Message tensor(Initializer t) {
        Message m = new Message();
        for (long d : t.dims()) {
            m.int64(TENSOR_DIMS, d);
        }
        return m.int32(TENSOR_DATA_TYPE, t.type().code()).string(TENSOR_NAME, t.name()).bytes(TENSOR_RAW_DATA, t.raw());
    }

    private static Message valueInfo(ValueInfo v) {
        Message shape = new Message();
        for (Dimension d : v.shape()) {
            shape.message(SHAPE_DIM, d.param() == null ? new Message().int64(DIM_VALUE, d.value())
                    : new Message().string(DIM_PARAM, d.param()));
        }
        Message tensorType = new Message().int32(TENSOR_TYPE_ELEM_TYPE, v.type().code()).message(TENSOR_TYPE_SHAPE, shape);
        return new Message()
                .string(VALUE_INFO_NAME, v.name())
                .message(VALUE_INFO_TYPE, new Message().message(TYPE_TENSOR_TYPE, tensorType))
                .string(VALUE_INFO_DOC_STRING, v.docString());
    }

    /**
     * One message being encoded. Writes go to memory, so the {@link IOException}s that
     * {@link CodedOutputStream} declares cannot happen; they are rethrown unchecked.
     */
    private static final class Message {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

        /** One write to the stream. */
        private interface Write {
            void to(CodedOutputStream out) throws IOException;
        }

        private Message put(Write write) {
            try {
                write.to(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        Message string(int field, String value) {
            return put(o -> o.writeString(field, value));
        }

        Message int64(int field, long value) {
            return put(o -> o.writeInt64(field, value));
        }

        Message int32(int field, int value) {
            return put(o -> o.writeInt32(field, value));
        }

        Message float32(int field, float value) {
            return put(o -> o.writeFloat(field, value));
        }

        Message bytes(int field, byte[] value) {
            return put(o -> o.writeByteArray(field, value));
        }

        /** Embeds {@code child} as a length-delimited field (the wire form of a sub-message). */
        Message message(int field, Message child) {
            return bytes(field, child.toByteArray());
        }

        byte[] toByteArray() {
            put(CodedOutputStream::flush);
            return bytes.toByteArray();
        }
    }
}
