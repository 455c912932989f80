package rankgrad.ltr.train;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rankgrad.nn.Mlp;
import rankgrad.ltr.LibraryVersion;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.RankingModel;

/**
 * The identity of a training run: everything that changes its result, each as a readable line.
 * The data sets are identified by their content (a SHA-256 over query ids, labels and feature
 * values, with their sizes), never by file names or sizes alone; the settings by their values
 * (library version, network and initial-weight seed, dropout, feature transform, normalization
 * with its fitted statistics, loss, optimizer, epochs, learning rate and its schedule, L2, batch
 * size, seed, patience, selection metric and its conventions, input noise); a feature subset ({@link RankingModel#inputs()}) and how the data were split
 * (the model's {@code info().get("data")}, set by whoever split them) where there are any. The
 * worker thread count is not part of it: results do not depend on it.
 *
 * <p>A checkpoint stores its run's fingerprint, and {@link Trainer} resumes it only for an equal
 * one; {@link #differences} says what differs otherwise.
 *
 * @param entries what identifies the run, by name, in a fixed order
 */
public record RunFingerprint(Map<String, String> entries) {

    public RunFingerprint {
        entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /**
     * The fingerprint of training {@code model} (its current weights are the start: only their seed
     * and architecture are recorded) with {@code loss} and {@code config} on these data sets, raw
     * (not normalized); {@code test} may be null.
     */
    public static RunFingerprint of(RankingModel model, RankingLoss loss, TrainingConfig config, Dataset train,
            Dataset valid, Dataset test) {
        return of(model, loss, config, Map.of("training data", describe(train)), valid, test);
    }

    /**
     * The fingerprint of a run whose training data and gradient split are identified by {@code
     * training} ({@link StepGradient#identity()}: "training data", and "virtual shards" when not 1).
     */
    public static RunFingerprint of(RankingModel model, RankingLoss loss, TrainingConfig config,
            Map<String, String> training, Dataset valid, Dataset test) {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("library", LibraryVersion.get());
        e.put("training data", training.get("training data"));
        e.put("validation data", describe(valid));
        e.put("test data", test == null ? "none" : describe(test));
        if (model.info().get("data") != null) {
            e.put("data split", model.info().get("data").toString());
        }
        e.put("model", model.architecture() + " " + describe(model.network().spec()));
        model.context().ifPresent(c -> e.put("listwise context", c.spec().toString()));
        if (!model.inputs().isAll()) {
            e.put("feature subset", model.inputs().toString());
        }
        if (model.transform() != FeatureTransform.NONE) {
            e.put("feature transform", model.transform().kind());
        }
        e.put("normalization", describe(model.normalization()));
        e.put("loss", loss.name());
        e.put("optimizer", config.optimizer().label());
        e.put("epochs", Integer.toString(config.epochs()));
        e.put("learning rate", Double.toString(config.learningRate()));
        e.put("L2", Double.toString(config.l2()));
        e.put("queries per batch", Integer.toString(config.batchQueries()));
        e.put("seed", Long.toString(config.seed()));
        e.put("patience", Integer.toString(config.patience()));
        e.put("selection", config.selection().toString());
        e.put("metric conventions", config.conventions().describe());
        if (!config.schedule().isConstant()) {
            e.put("learning-rate schedule", config.schedule().toString());
        }
        if (config.inputNoise() > 0) {
            e.put("input noise", Double.toString(config.inputNoise()));
        }
        training.forEach((k, v) -> {
            if (!k.equals("training data")) {
                e.put(k, v);
            }
        });
        return new RunFingerprint(e);
    }

    /**
     * What differs from {@code other} (the fingerprint a checkpoint holds), one phrase per entry:
     * {@code "epochs (checkpoint: 3; this run: 6)"}; empty when they are equal.
     */
    public List<String> differences(RunFingerprint other) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            String theirs = other.entries.get(e.getKey());
            if (!e.getValue().equals(theirs)) {
                out.add(e.getKey() + " (checkpoint: " + (theirs == null ? "not recorded" : theirs) + "; this run: "
                        + e.getValue() + ")");
            }
        }
        for (String key : other.entries.keySet()) {
            if (!entries.containsKey(key)) {
                out.add(key + " (checkpoint: " + other.entries.get(key) + "; not part of this run)");
            }
        }
        return out;
    }

    /**
     * How a data set appears in a fingerprint (and in {@link StepGradient#identity()}): queries,
     * documents, features and a SHA-256 of the content (first 16 hex digits).
     */
    public static String describe(Dataset d) {
        MessageDigest sha = sha256();
        ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        buf.putInt(d.features());
        for (Query q : d.queries()) {
            byte[] qid = q.qid().getBytes(StandardCharsets.UTF_8);
            flushIfFull(sha, buf, 8);
            buf.putInt(qid.length).putInt(q.docs());
            sha.update(buf.flip());
            buf.clear();
            sha.update(qid);
            for (float l : q.labels()) {
                flushIfFull(sha, buf, 4);
                buf.putInt(Float.floatToIntBits(l));
            }
            for (float x : q.x()) {
                flushIfFull(sha, buf, 4);
                buf.putInt(Float.floatToIntBits(x));
            }
        }
        sha.update(buf.flip());
        return String.format(Locale.ROOT, "%d queries, %d documents, %d features, content sha256 %s", d.size(),
                d.documents(), d.features(), HexFormat.of().formatHex(sha.digest()).substring(0, 16));
    }

    private static void flushIfFull(MessageDigest sha, ByteBuffer buf, int need) {
        if (buf.remaining() < need) {
            sha.update(buf.flip());
            buf.clear();
        }
    }

    private static String describe(Mlp.Spec s) {
        return "(" + s.inputWidth() + " inputs, hidden " + s.hiddenWidths() + ", " + s.activation()
                + (s.batchNorm() ? ", batch norm " + s.batchNormMomentum() : "")
                + (s.inputBatchNorm() ? ", input batch norm" : "")
                + (s.lastActivated() ? ", last layer activated" : "") + ", " + s.outputWidth() + " output, "
                + s.init().name().toLowerCase(Locale.ROOT) + " init, " + s.dtype() + ", weight seed " + s.seed()
                + (s.dropout() > 0 ? ", dropout " + s.dropout() : "") + ")";
    }

    private static String describe(Normalization n) {
        if (n instanceof Normalization.Standardization s) {
            MessageDigest sha = sha256();
            ByteBuffer buf = ByteBuffer.allocate(8 * s.mean().length).order(ByteOrder.LITTLE_ENDIAN);
            for (int f = 0; f < s.mean().length; f++) {
                buf.putInt(Float.floatToIntBits(s.mean()[f])).putInt(Float.floatToIntBits(s.std()[f]));
            }
            sha.update(buf.flip());
            return n.kind() + " (statistics sha256 " + HexFormat.of().formatHex(sha.digest()).substring(0, 16) + ")";
        }
        return n.kind();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
