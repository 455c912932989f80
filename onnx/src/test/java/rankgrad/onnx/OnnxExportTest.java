package rankgrad.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.Activation;
import rankgrad.nn.BatchNorm1d;
import rankgrad.nn.Layer;
import rankgrad.nn.Linear;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

class OnnxExportTest {
    private static final int D = 7;
    /** Feature 4 is constant in every document: std 0 for both standardizations. */
    private static final int CONSTANT_FEATURE = 3;
    private static final OrtEnvironment ORT = OrtEnvironment.getEnvironment();

    @TempDir
    Path dir;

    /**
     * One thread per session: the test queries are small, and ONNX Runtime's default pool of
     * spinning threads only competes with the other builds on a small machine.
     */
    private static OrtSession session(byte[] onnx) throws OrtException {
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setInterOpNumThreads(1);
            return ORT.createSession(onnx, options);
        }
    }

    /** Cubic data with a constant feature and a one-document query, scaled so that standardization matters. */
    private static Dataset data(long seed) {
        Dataset raw = CubicData.create(D, seed).sample("onnx", 6, 12, seed + 1);
        List<Query> qs = new ArrayList<>();
        for (Query q : raw.queries()) {
            float[] x = q.x().clone();
            for (int i = 0; i < x.length; i++) {
                int f = i % D;
                x[i] = f == CONSTANT_FEATURE ? 2.5f : x[i] * (f + 1) + 3 * f;
            }
            qs.add(q.withX(x));
        }
        Query first = qs.get(0);
        qs.add(new Query("single", D, Arrays.copyOf(first.x(), D), new float[] {1}));
        return new Dataset("onnx", D, qs);
    }

    private static Normalization normalization(String kind, Dataset train) {
        return switch (kind) {
            case "none" -> new Normalization.None();
            case "standardize" -> Normalization.Standardization.fit(train);
            case "query-zscore" -> new Normalization.QueryZScore();
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /**
     * Gives every batch norm a non-trivial affine map (gamma of either sign, beta, running
     * statistics) and every linear layer a bias, as training would, so that folding is exercised
     * on every term; linear weights keep their initialization.
     */
    private static RankingModel perturbed(RankingModel model, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        Map<String, Tensor> state = model.network().state();
        state.forEach((name, t) -> {
            for (int i = 0; i < t.size(); i++) {
                if (name.endsWith("running_var")) {
                    t.set(i, rng.nextDouble(0.2, 3));
                } else if (name.endsWith("running_mean") || name.endsWith("bias")) {
                    t.set(i, rng.nextDouble(-0.5, 0.5));
                } else if (t.rank() == 1) {
                    t.set(i, rng.nextDouble(0.5, 2) * (rng.nextBoolean() ? 1 : -1));
                }
            }
        });
        model.eval();
        return model;
    }

    /**
     * Every per-document architecture of {@link Architectures} with every normalization, but of
     * Bruch et al.'s B networks only the narrowest and the widest (B128 .. B512 have the same layers
     * between).
     */
    static Stream<Arguments> architecturesAndNormalizations() {
        List<Arguments> out = new ArrayList<>();
        for (String arch : Architectures.names()) {
            // attn is refused with its reason (aListwiseContextModelIsRefusedWithTheReason)
            if (List.of("B128", "B256", "B512").contains(arch) || Architectures.context(arch, 0).isPresent()) {
                continue;
            }
            for (String norm : List.of("none", "standardize", "query-zscore")) {
                out.add(Arguments.of(arch, norm));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("architecturesAndNormalizations")
    void onnxRuntimeScoresEqualRankgradsWithinFloat32Rounding(String arch, String norm) throws OrtException {
        Dataset train = data(1);
        RankingModel model = perturbed(RankingModel.create(arch, D, normalization(norm, train), 5), 9);
        assertScoresMatch(model, data(2));
    }

    /**
     * A model trained on features 2, 3, 4 and 7 takes full-width rows: the graph gathers its
     * columns as the scorer does (a missing or misplaced Gather scores other columns, far off).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subsetNormalizations")
    void aFeatureSubsetIsGatheredFromFullWidthRows(String norm) throws Exception {
        FeatureSubset subset = FeatureSubset.parse("2-4,7");
        RankingModel model = perturbed(RankingModel.create("R4.L", subset, normalization(norm, subset.apply(data(1))), 5), 9);
        assertScoresMatch(model, data(2));
        RankingModel read = ModelFile.fromJson(ModelFile.toJson(model));
        assertArrayEquals(OnnxExport.toBytes(model, "s"), OnnxExport.toBytes(read, "s"));
        try (OrtSession session = session(OnnxExport.toBytes(model, "s"))) {
            assertEquals(List.of(D), Arrays.stream(((ai.onnxruntime.TensorInfo) session.getInputInfo().get(OnnxExport.INPUT)
                    .getInfo()).getShape()).skip(1).mapToObj(v -> (int) v).toList(), "the input is full width");
        }
    }

    /**
     * The signed log1p transform is computed inside the graph before the normalization, with the
     * normalization fitted on transformed data (a missing or misplaced transform moves scores far
     * beyond the rounding bound). Inputs are scaled by 100 and mixed in sign so the logarithm bends.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("subsetNormalizations")
    void theSignedLog1pTransformIsInTheGraph(String norm) throws OrtException {
        Dataset train = FeatureTransform.SIGNED_LOG1P.apply(scaled(data(1)));
        RankingModel model = perturbed(RankingModel.create("R4.L", D, normalization(norm, train), 5), 9)
                .withTransform(FeatureTransform.SIGNED_LOG1P);
        assertScoresMatch(model, scaled(data(2)));
        try (OrtSession session = session(OnnxExport.toBytes(model, "s"))) {
            assertEquals("signed-log1p", session.getMetadata().getCustomMetadata().get("rankgrad.transform"));
        }
    }

    /**
     * An ensemble is one graph whose Mean node averages the members in float32; rankgrad averages
     * in float64. Each member may be off by its own rounding bound, and the float32 mean of K
     * values adds about log2(K) + 1 roundings of the result (Higham Sec. 4.2): the bound is the
     * mean of the members' bounds plus 4 ulps of the score.
     */
    @Test
    void anEnsembleIsTheMeanOfItsMembersGraphs() throws OrtException {
        Dataset train = data(1);
        Normalization z = Normalization.Standardization.fit(train);
        List<RankingModel> members = List.of(perturbed(RankingModel.create("R4.L", D, z, 5), 9),
                perturbed(RankingModel.create("B64", D, z, 6), 10), perturbed(RankingModel.create("linear", D, z, 7), 11));
        Ensemble e = Ensemble.of(members);
        try (OrtSession session = session(OnnxExport.toBytes(e, "e"))) {
            assertEquals("3", session.getMetadata().getCustomMetadata().get("rankgrad.ensemble"));
            for (Query q : data(2).queries()) {
                float[] expected = e.scorer().score(q);
                float[] actual = run(session, q);
                double[] bound = new double[q.docs()];
                for (RankingModel m : members) {
                    double[] b = roundingBounds(m, m.normalization().apply(q));
                    for (int i = 0; i < bound.length; i++) {
                        bound[i] += b[i] / members.size();
                    }
                }
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], actual[i], bound[i] + 4 * Math.ulp(expected[i]), "query " + q.qid() + ", doc " + i);
                }
            }
        }
        assertArrayEquals(OnnxExport.toBytes(members.get(0), "s"), OnnxExport.toBytes(Ensemble.of(members.subList(0, 1)), "s"),
                "an ensemble of one is its member's graph");
    }

    /** Features times 100, every other column negated. */
    private static Dataset scaled(Dataset d) {
        List<Query> out = new ArrayList<>();
        for (Query q : d.queries()) {
            float[] x = q.x().clone();
            for (int i = 0; i < x.length; i++) {
                x[i] *= (i % 2 == 0 ? 100f : -100f);
            }
            out.add(q.withX(x));
        }
        return new Dataset(d.name(), d.features(), out);
    }

    static Stream<String> subsetNormalizations() {
        return Stream.of("none", "standardize", "query-zscore");
    }

    @Test
    void otherActivationsScoreLikeRankgrad() throws OrtException {
        for (Activation f : List.of(Activation.leakyRelu(0.2), Activation.tanh(), Activation.sigmoid(), Activation.celu(0.5))) {
            Mlp net = Mlp.create(Mlp.builder(D).hidden(9, 5).activation(f).batchNorm(true).inputBatchNorm(true)
                    .lastActivated(true).seed(4).spec());
            RankingModel model = perturbed(RankingModel.of("custom", net, Normalization.Standardization.fit(data(1))), 3);
            assertScoresMatch(model, data(3));
        }
    }

    /**
     * Scores every query of {@code test} in one ONNX Runtime run each (a query's documents are one
     * run, as query-level normalization needs) and compares them with {@link RankingModel#score}.
     */
    private static void assertScoresMatch(RankingModel model, Dataset test) throws OrtException {
        byte[] onnx = OnnxExport.toBytes(model, "test");
        try (OrtSession session = session(onnx)) {
            for (Query q : test.queries()) {
                float[] expected = model.scorer().score(q);
                float[] actual = run(session, q);
                assertEquals(expected.length, actual.length);
                double[] tolerance = roundingBounds(model, model.normalization().apply(model.transform().apply(
                        model.inputs().apply(q))));
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], actual[i], tolerance[i],
                            model.architecture() + " " + model.normalization().kind() + ": query " + q.qid() + ", document " + i);
                }
            }
        }
    }

    /**
     * The largest float32 rounding difference allowed between rankgrad's score and ONNX Runtime's
     * for each document of a query with normalized features {@code z}. Both evaluate the same function in
     * float32 in different orders: rankgrad with batch normalization as its own step and its GEMM,
     * ONNX Runtime with batch normalization folded into weights rounded once and MLAS's GEMM. The
     * rounding error of a float32 sum of n terms is typically sqrt(n) u (sum of |terms|), u =
     * 2^-24 (rounding errors add like a random walk: Higham, Accuracy and Stability of Numerical
     * Algorithms, Sec. 2.8), and each layer's error reaches the output in proportion. So the
     * tolerance is 4 u S (sum over the linear layers of sqrt(inputs)), S the sum of the absolute
     * terms of the output (the last layer's |w_i h_i| and |b|, through its batch norm if it has
     * one): 2 for two evaluations, 2 for margin. The largest difference measured over these tests
     * is 30 u S (B256), a sixth of its tolerance or less; a wrong fold, a dropped bias or a wrong
     * normalization moves scores by a fair fraction of S, thousands of times more.
     */
    private static double[] roundingBounds(RankingModel model, Query z) {
        List<Layer> modules = model.network().layers().modules();
        int last = 0;
        double depth = 0;
        for (int i = 0; i < modules.size(); i++) {
            if (modules.get(i) instanceof Linear lin) {
                last = i;
                depth += Math.sqrt(lin.in());
            }
        }
        Tensor h;
        try (NoGrad ignored = NoGrad.enter()) {
            Var v = Var.constant(Tensor.of(z.x(), z.docs(), z.features()));
            for (int i = 0; i < last; i++) {
                v = modules.get(i).forward(v);
            }
            h = v.value();
        }
        Linear output = (Linear) modules.get(last);
        double u = Math.ulp(1f) / 2;
        double[] bounds = new double[z.docs()];
        for (int d = 0; d < bounds.length; d++) {
            double scale = Math.abs(output.bias().value().get(0));
            for (int i = 0; i < output.in(); i++) {
                scale += Math.abs(output.weight().value().get(i) * h.get(d, i));
            }
            for (int i = last + 1; i < modules.size(); i++) {
                if (modules.get(i) instanceof BatchNorm1d bn) {
                    double a = Math.abs(bn.weight().value().get(0)) / Math.sqrt(bn.runningVar().get(0) + bn.eps());
                    scale = a * (scale + Math.abs(bn.runningMean().get(0))) + Math.abs(bn.bias().value().get(0));
                }
            }
            bounds[d] = 4 * u * scale * depth;
        }
        return bounds;
    }

    private static float[] run(OrtSession session, Query q) throws OrtException {
        try (OnnxTensor x = OnnxTensor.createTensor(ORT, FloatBuffer.wrap(q.x()), new long[] {q.docs(), q.features()});
                OrtSession.Result r = session.run(Map.of(OnnxExport.INPUT, x))) {
            return (float[]) r.get(OnnxExport.OUTPUT).orElseThrow().getValue();
        }
    }

    @Test
    void foldedWeightsThatAreNotFiniteOrOverflowAreRefusedAndNothingWritten() {
        // A negative batch-norm variance (the ONNX file got 600 NaN weights) and a standard deviation
        // no data gives (the weights over it overflow float32).
        RankingModel negative = RankingModel.create("R4.L", D, new Normalization.None(), 2);
        Map<String, Tensor> state = negative.state();
        state.get("layers.1.running_var").set(0, -1);
        negative.loadState(state);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.toBytes(negative, "m"));
        assertTrue(e.getMessage().startsWith("cannot export to ONNX: folded layer 1: the bias of unit 1 is NaN"),
                e.getMessage());
        float[] std = new float[D];
        Arrays.fill(std, 1f);
        std[2] = 1.4e-45f;
        RankingModel tiny = RankingModel.create("R4.L", D, new Normalization.Standardization(new float[D], std), 2);
        Path file = dir.resolve("tiny.onnx");
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class, () -> OnnxExport.write(tiny, "m", file));
        assertTrue(t.getMessage().startsWith("cannot export to ONNX: input feature 3 has standard deviation 1.4E-45"),
                t.getMessage());
        assertTrue(Files.notExists(file));
    }

    @Test
    void theGraphStatesItsVersionsAndHasNoBatchNormalization() throws Exception {
        RankingModel model = perturbed(RankingModel.create("B64", D, Normalization.Standardization.fit(data(1)), 2), 1);
        UnknownFieldSet file = UnknownFieldSet.parseFrom(OnnxExport.toBytes(model, "b64"));
        assertEquals(List.of(OnnxExport.IR_VERSION), file.getField(1).getVarintList(), "ModelProto.ir_version");
        UnknownFieldSet opset = UnknownFieldSet.parseFrom(file.getField(8).getLengthDelimitedList().get(0));
        assertEquals(List.of(OnnxExport.OPSET_VERSION), opset.getField(2).getVarintList(), "OperatorSetIdProto.version");
        assertEquals(17L, OnnxExport.OPSET_VERSION);
        assertEquals(8L, OnnxExport.IR_VERSION);
        UnknownFieldSet graph = UnknownFieldSet.parseFrom(file.getField(7).getLengthDelimitedList().get(0));
        List<String> ops = new ArrayList<>();
        for (ByteString node : graph.getField(1).getLengthDelimitedList()) {
            ops.add(UnknownFieldSet.parseFrom(node).getField(4).getLengthDelimitedList().get(0).toStringUtf8());
        }
        // B64: input batch norm, then 64, 32, 16 units with batch norm and ReLU, then the output
        // layer; feature 4 is constant, so the standardization ends in a Where.
        assertEquals(List.of("Sub", "Div", "Where", "Gemm", "Relu", "Gemm", "Relu", "Gemm", "Relu", "Gemm", "Squeeze"), ops);
    }

    @Test
    void theModelCarriesItsMetadataAndTheFileIsWrittenWhole() throws Exception {
        RankingModel model = perturbed(RankingModel.create("R4.L", D, new Normalization.QueryZScore(), 2), 1);
        Path file = dir.resolve("sub/model.onnx");
        OnnxExport.write(model, "ranker", file);
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(List.of(file), files.toList(), "no temporary file is left beside the model");
        }
        try (OrtSession session = session(Files.readAllBytes(file))) {
            assertEquals("rankgrad", session.getMetadata().getProducerName());
            assertEquals("ranker", session.getMetadata().getGraphName());
            Map<String, String> meta = session.getMetadata().getCustomMetadata();
            assertEquals("R4.L", meta.get("rankgrad.architecture"));
            assertEquals("query-zscore", meta.get("rankgrad.normalization"));
            assertEquals("one query's documents per run", meta.get("rankgrad.batch"));
            assertEquals(List.of(OnnxExport.INPUT), List.copyOf(session.getInputNames()));
            assertEquals(List.of(OnnxExport.OUTPUT), List.copyOf(session.getOutputNames()));
        }
    }

    @Test
    void theSameModelGivesTheSameBytesAfterAModelFileRoundTrip() throws Exception {
        RankingModel model = perturbed(RankingModel.create("CE4.L", D, Normalization.Standardization.fit(data(1)), 2), 1);
        Path json = dir.resolve("model.json");
        ModelFile.write(model, json);
        assertArrayEquals(OnnxExport.toBytes(model, "m"), OnnxExport.toBytes(ModelFile.read(json), "m"));
    }

    @Test
    void aNetworkWithMoreThanOneOutputIsRefusedWithTheReason() {
        Mlp net = Mlp.create(Mlp.builder(D).hidden(4).output(2).seed(1).spec());
        RankingModel model = RankingModel.of("two-outputs", net, new Normalization.None());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.toBytes(model, "m"));
        assertEquals("cannot export to ONNX: the network has 2 outputs, a scoring function has one", e.getMessage());
    }

    @Test
    void aListwiseContextModelIsRefusedWithTheReason() {
        RankingModel model = RankingModel.create("attn.w8", D, new Normalization.None(), 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.toBytes(model, "m"));
        assertTrue(e.getMessage().startsWith("cannot export to ONNX: attn.w8 scores each document against the other"
                + " documents of its query"), e.getMessage());
    }

    @Test
    void queryLevelNormalizationUsesOnlyTheRowsOfTheRun() throws OrtException {
        // The same document scored inside two different queries gets the two scores rankgrad gives.
        RankingModel model = perturbed(RankingModel.create("linear", D, new Normalization.QueryZScore(), 2), 1);
        Dataset test = data(4);
        Query a = test.queries().get(0);
        Query b = test.queries().get(1);
        float[] doc = Arrays.copyOf(a.x(), D);
        float[] bx = b.x().clone();
        System.arraycopy(doc, 0, bx, 0, D);
        Query b2 = b.withX(bx);
        try (OrtSession session = session(OnnxExport.toBytes(model, "m"))) {
            float inA = run(session, a)[0];
            float inB = run(session, b2)[0];
            assertTrue(Math.abs(inA - inB) > 1e-3, "per-query statistics differ, so do the scores: " + inA + " " + inB);
            assertEquals(model.scorer().score(a)[0], inA, roundingBounds(model, model.normalization().apply(a))[0]);
            assertEquals(model.scorer().score(b2)[0], inB, roundingBounds(model, model.normalization().apply(b2))[0]);
        }
    }
}
