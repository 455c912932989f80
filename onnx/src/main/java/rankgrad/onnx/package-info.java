/**
 * ONNX export of rankgrad models: {@link rankgrad.onnx.OnnxExport} writes a trained
 * {@code RankingModel} as an ONNX graph (IR version 8, opset 17) that ONNX Runtime, Vespa,
 * OpenSearch, Triton and other ONNX servers can run.
 *
 * <p>The few ONNX messages needed are written by hand with protobuf-java's
 * {@code CodedOutputStream} ({@code ProtoEncoder}), with the field numbers of the
 * ONNX IR specification ({@code onnx.proto}); no generated code. This module depends on
 * {@code rankgrad.ltr} and protobuf-java, so that {@code autodiff} and {@code ltr} stay JDK-only.
 */
package rankgrad.onnx;
