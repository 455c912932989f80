package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

class CheckpointTest {
    @TempDir
    Path dir;

    private static Checkpoint sample() {
        Map<String, String> run = new LinkedHashMap<>();
        run.put("loss", "ranknet");
        run.put("epochs", "5");
        List<EpochResult> history = List.of(new EpochResult(1, -0.5, 0.61, 0.6, true, 0),
                new EpochResult(2, -0.625, 0.59, Double.NaN, false, 0));
        return new Checkpoint(new RunFingerprint(run), 2, 12, 1, 0.61, 1, null, null, history,
                Map.of("w", Tensor.of(new float[] {1.5f, -2f}, 2)), Map.of("step.w", Tensor.scalar(DType.F64, 12)),
                Map.of("w", Tensor.of(new float[] {1f, -1f}, 2)));
    }

    @Test
    void aWrittenCheckpointReadsBackWithTypedFields() throws IOException {
        Path file = dir.resolve("c.json");
        Checkpoint c = sample();
        c.write(file);
        Checkpoint back = Checkpoint.read(file, c.run());
        assertEquals(c.run(), back.run());
        assertEquals(2, back.epochsDone());
        assertEquals(12L, back.step());
        assertEquals(1, back.bestEpoch());
        assertEquals(0.61, back.bestValidation());
        assertEquals(1, back.badEpochs());
        assertNull(back.stop());
        assertEquals(c.history(), back.history());
        assertArrayEquals(new float[] {1.5f, -2f}, back.weights().get("w").f32());
        assertEquals(DType.F64, back.optimizer().get("step.w").dtype());
        assertArrayEquals(new float[] {1f, -1f}, back.best().get("w").f32());
        back.write(dir.resolve("again.json"));
        assertEquals(Files.readString(file), Files.readString(dir.resolve("again.json")), "writing is deterministic");
    }

    @Test
    void aDamagedCheckpointSaysWhatIsWrongAndHowToStartOver() throws IOException {
        Path file = dir.resolve("c.json");
        sample().write(file);
        String good = Files.readString(file);
        String[][] cases = {
            {good.substring(0, good.length() / 3), "it is not valid JSON ("},
            {"[1, 2]", "the top level is not a JSON object"},
            {good.replace("\"rankgrad-checkpoint\"", "\"rankgrad-model\""), "it is not a rankgrad checkpoint"},
            {good.replace("\"version\": 2", "\"version\": 1"), "it has checkpoint format version 1 (written by rankgrad "},
            {good.replace("\"epochsDone\": 2", "\"epochsDone\": 2.5"), "\"epochsDone\" is 2.5, not a whole number >= 0"},
            {good.replace("\"badEpochs\": 1,\n", ""), "\"badEpochs\" is missing"},
            {good.replace("\"best\": true", "\"best\": \"yes\""), "\"history[0].best\" is \"yes\", not true or false"},
            {good.replace("\"epochsDone\": 2", "\"epochsDone\": 3"), "its counters disagree (3 epochs done, 2 in the history"},
            {good.replace("\"stop\": null", "\"stop\": \"PAUSED\""), "\"stop\" is \"PAUSED\", not one of [COMPLETED"},
            {good.replace("1.5, -2.0", "1.5, 1e99"), "weights.w[1] = 1.0E99 is not a finite float32"},
        };
        for (String[] c : cases) {
            Files.writeString(file, c[0]);
            CheckpointException e = assertThrows(CheckpointException.class, () -> Checkpoint.read(file), c[1]);
            assertEquals(CheckpointException.Reason.DAMAGED, e.reason());
            assertTrue(e.problem().startsWith(file + " is damaged: ") && e.problem().contains(c[1])
                    && e.problem().endsWith(", so the run cannot resume from it"), e.problem());
            assertTrue(e.getMessage().endsWith("; delete " + file + " to start the run over"), e.getMessage());
        }
    }

    @Test
    void aCheckpointOfAnotherRunNamesEveryDifference() throws IOException {
        Path file = dir.resolve("c.json");
        sample().write(file);
        Map<String, String> mine = new LinkedHashMap<>();
        mine.put("loss", "lambdarank");
        mine.put("epochs", "5");
        mine.put("seed", "2");
        CheckpointException e = assertThrows(CheckpointException.class, () -> Checkpoint.read(file, new RunFingerprint(mine)));
        assertEquals(CheckpointException.Reason.OTHER_RUN, e.reason());
        assertEquals(file + " belongs to a different run, so it is not resumed: loss (checkpoint: ranknet; this run:"
                + " lambdarank), seed (checkpoint: not recorded; this run: 2) differ", e.problem());
    }
}
