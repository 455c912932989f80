package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.LibraryVersion;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.model.ModelFile;

/**
 * Everything a {@link Trainer} needs to continue a run after its last finished epoch, exactly as
 * the uninterrupted run would: the run's identity, the counters, the history, the weights and
 * batch-norm statistics, the optimizer's state and the best epoch's weights. Written atomically
 * after every epoch as one JSON document:
 *
 * <pre>
 * { "format": "rankgrad-checkpoint", "version": 2, "library": "0.2.0",
 *   "run": { "training data": "1000 queries, ..., content sha256 ...", "loss": "ndcg-type3", ... },
 *   "epochsDone": 3, "step": 48, "bestEpoch": 3, "bestValidation": 0.7572, "badEpochs": 0,
 *   "stop": null, "message": null,
 *   "history": [ {"epoch": 1, "trainLoss": -0.674, "validation": 0.5349, "test": 0.5349, "best": true}, ... ],
 *   "weights": { "layers.0.weight": {"shape": [50, 100], "values": [...]}, ... },
 *   "optimizer": { "step.layers.0.weight": {...}, "exp_avg.layers.0.weight": {...}, ... },
 *   "best": { ...the best epoch's weights... } }
 * </pre>
 *
 * @param run the identity of the run that wrote it
 * @param epochsDone finished epochs
 * @param step optimizer steps taken (the losses' tie-breaks are keyed by it)
 * @param bestEpoch the best epoch so far (0 = none)
 * @param bestValidation its selection metric (negative infinity when none)
 * @param badEpochs epochs since the best one
 * @param stop why the run ended, or null while it goes on
 * @param message the run's closing sentence, or null while it goes on
 * @param history every finished epoch (wall times not kept: 0)
 * @param weights the network's state (parameters and buffers) after the last finished epoch
 * @param optimizer the optimizer's state then
 * @param best the network's state at the best epoch
 */
public record Checkpoint(RunFingerprint run, int epochsDone, long step, int bestEpoch, double bestValidation,
        int badEpochs, TrainingResult.Stop stop, String message, List<EpochResult> history, Map<String, Tensor> weights,
        Map<String, Tensor> optimizer, Map<String, Tensor> best) {

    /** The format name in every checkpoint. */
    public static final String FORMAT = "rankgrad-checkpoint";
    /** The format version this library writes and reads. */
    public static final int VERSION = 2;

    public Checkpoint {
        history = List.copyOf(history);
    }

    /** Whether the run had ended when this was written (no epoch is left to train). */
    public boolean finished() {
        return stop != null;
    }

    /** Writes the checkpoint to {@code file} atomically: a reader sees the previous one or this one. */
    public void write(Path file) throws IOException {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("format", FORMAT);
        c.put("version", VERSION);
        c.put("library", LibraryVersion.get());
        c.put("run", new LinkedHashMap<String, Object>(run.entries()));
        c.put("epochsDone", epochsDone);
        c.put("step", step);
        c.put("bestEpoch", bestEpoch);
        c.put("bestValidation", Double.isFinite(bestValidation) ? bestValidation : null);
        c.put("badEpochs", badEpochs);
        c.put("stop", stop == null ? null : stop.name());
        c.put("message", message);
        List<Object> h = new ArrayList<>();
        for (EpochResult r : history) {
            Map<String, Object> e = r.describe();
            e.put("best", r.best());
            h.add(e);
        }
        c.put("history", h);
        c.put("weights", ModelFile.tensors(weights));
        c.put("optimizer", ModelFile.tensors(optimizer));
        c.put("best", ModelFile.tensors(best));
        AtomicWrite.writeString(file, Json.write(c));
    }

    /**
     * Reads the checkpoint in {@code file} and checks that it belongs to {@code run}.
     *
     * @throws CheckpointException when it is damaged or belongs to another run, saying what is
     *     wrong (the field, or which data and settings differ)
     */
    public static Checkpoint read(Path file, RunFingerprint run) throws IOException {
        Checkpoint c = read(file);
        List<String> differences = run.differences(c.run());
        if (!differences.isEmpty()) {
            throw new CheckpointException(file, CheckpointException.Reason.OTHER_RUN, file + " belongs to a different run,"
                    + " so it is not resumed: " + String.join(", ", differences) + (differences.size() == 1 ? " differs"
                    : " differ"), null);
        }
        return c;
    }

    /**
     * Reads the checkpoint in {@code file}.
     *
     * @throws CheckpointException when it is damaged, saying what is wrong
     */
    public static Checkpoint read(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file);
        } catch (CharacterCodingException e) {
            throw damaged(file, "it is not UTF-8 text", e);
        }
        JsonFields c;
        try {
            c = JsonFields.root(Json.parse(text));
        } catch (IllegalArgumentException e) {
            throw damaged(file, "it is not valid JSON (" + e.getMessage() + ")", e);
        }
        try {
            if (!c.has("format") || !FORMAT.equals(c.stringOrNull("format"))) {
                throw new IllegalArgumentException("it is not a rankgrad checkpoint (\"format\" is not \"" + FORMAT + "\")");
            }
            long version = c.integer("version", 0, Integer.MAX_VALUE);
            if (version != VERSION) {
                throw new IllegalArgumentException("it has checkpoint format version " + version + " (written by rankgrad "
                        + (c.has("library") ? c.string("library") : "before 0.1.0") + "), this rankgrad reads version "
                        + VERSION);
            }
            Map<String, String> run = new LinkedHashMap<>();
            JsonFields r = c.object("run");
            for (String key : r.keys()) {
                run.put(key, r.string(key));
            }
            List<EpochResult> history = new ArrayList<>();
            for (JsonFields h : c.objects("history")) {
                history.add(new EpochResult(h.integer("epoch"), h.number("trainLoss"), h.numberOr("validation", Double.NaN),
                        h.numberOr("test", Double.NaN), h.bool("best"), 0));
            }
            int epochsDone = c.integer("epochsDone");
            int bestEpoch = c.integer("bestEpoch");
            if (history.size() != epochsDone || bestEpoch > epochsDone) {
                throw new IllegalArgumentException("its counters disagree (" + epochsDone + " epochs done, "
                        + history.size() + " in the history, best epoch " + bestEpoch + ")");
            }
            String stop = c.stringOrNull("stop");
            return new Checkpoint(new RunFingerprint(run), epochsDone, c.integer("step", 0, Long.MAX_VALUE), bestEpoch,
                    c.numberOr("bestValidation", Double.NEGATIVE_INFINITY), c.integer("badEpochs"),
                    stop == null ? null : stop(stop), c.stringOrNull("message"), history,
                    ModelFile.readTensors(c.raw("weights"), "weights"),
                    ModelFile.readTensors(c.raw("optimizer"), "optimizer"), ModelFile.readTensors(c.raw("best"), "best"));
        } catch (IllegalArgumentException e) {
            throw damaged(file, e.getMessage(), e);
        }
    }

    private static TrainingResult.Stop stop(String name) {
        try {
            return TrainingResult.Stop.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"stop\" is \"" + name + "\", not one of "
                    + java.util.Arrays.toString(TrainingResult.Stop.values()), e);
        }
    }

    /** A checkpoint whose content does not fit the model it is resumed into. */
    static CheckpointException damaged(Path file, String problem, Throwable cause) {
        return new CheckpointException(file, CheckpointException.Reason.DAMAGED, file + " is damaged: " + problem
                + ", so the run cannot resume from it", cause);
    }
}
