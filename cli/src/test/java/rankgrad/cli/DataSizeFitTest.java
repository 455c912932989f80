package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.train.TrainingConfig;

/** Training fitted to the size of the training set: the rule, its warning, and a 40-query set end to end. */
class DataSizeFitTest {
    @TempDir
    Path dir;

    @Test
    void theDemosSettingsAreLeftAlone() {
        // The demo: 4,000 training queries, 64 per batch (63 steps per epoch).
        TrainingConfig demo = TrainingConfig.defaults();
        StringWriter err = new StringWriter();
        assertSame(demo, DataSizeFit.fit(demo, 4000, false, new PrintWriter(err, true)));
        assertSame(demo, DataSizeFit.fit(demo, 161, false, new PrintWriter(err, true)), "LightGBM's example split");
        assertSame(demo, DataSizeFit.fit(demo, 64, false, new PrintWriter(err, true)), "one batch of 64 exactly");
        assertEquals("", err.toString());
    }

    @Test
    void aSmallSetGetsSmallerBatchesAndPatienceInStepsWithOneWarningLine() {
        TrainingConfig c = TrainingConfig.defaults().withPatience(2).withEpochs(100);
        StringWriter err = new StringWriter();
        TrainingConfig fitted = DataSizeFit.fit(c, 40, false, new PrintWriter(err, true));
        assertEquals(40, fitted.batchQueries());
        assertEquals(50, fitted.patience(), "50 steps of 1 step per epoch");
        assertEquals("rankgrad: warning: 40 training queries are fewer than 1 batch(es) of 64: batches of 40 queries instead"
                + " (--batch-queries sets it), 1 step(s) per epoch (100 in 100 epochs); early stopping after 50 epochs (50"
                + " steps) without improvement instead of 2", err.toString().strip());
        // An explicit batch is kept; patience still counts at least 50 steps; patience 0 (never stop) stays 0.
        TrainingConfig kept = DataSizeFit.fit(c, 40, true, null);
        assertEquals(64, kept.batchQueries());
        assertEquals(50, kept.patience());
        assertEquals(0, DataSizeFit.fit(c.withPatience(0), 40, false, null).patience());
        assertEquals(3, DataSizeFit.fit(c, 3, false, null).batchQueries(), "never larger than the training set");
        // An explicit batch that 40 queries fill (16: 3 steps per epoch) is not small data: the user's settings stay.
        TrainingConfig sixteen = c.withBatchQueries(16);
        assertSame(sixteen, DataSizeFit.fit(sixteen, 40, true, null));
    }

    private Path[] data() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "40,20,10", "--docs", "10", "--features", "5");
        assertEquals(0, g.code(), g.err());
        return new Path[] {dir.resolve("Fold1/train.txt"), dir.resolve("Fold1/vali.txt")};
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> training(Path model) throws Exception {
        Map<String, Object> file = (Map<String, Object>) Json.parse(Files.readString(model));
        return (Map<String, Object>) ((Map<String, Object>) file.get("info")).get("training");
    }

    @Test
    void fortyQueriesTrainForManyStepsAndLossesNoLongerStopWithTheSameModel() throws Exception {
        Path[] d = data();
        String[] validation = new String[2];
        List<String> losses = List.of("ranknet", "listnet");
        for (int i = 0; i < 2; i++) {
            Path out = dir.resolve("run-" + losses.get(i));
            Run r = run("train", "--train", d[0].toString(), "--valid", d[1].toString(), "--out", out.toString(),
                    "--model", "linear", "--loss", losses.get(i), "--epochs", "30", "--patience", "2");
            assertEquals(0, r.code(), r.err());
            assertEquals(1, r.err().lines().filter(l -> l.startsWith("rankgrad: warning: 40 training queries")).count(),
                    r.err());
            assertTrue(r.err().contains("1 step(s) per epoch (30 in 30 epochs); early stopping after 50 epochs (50 steps)"),
                    r.err());
            Map<String, Object> t = training(out.resolve("model.json"));
            assertEquals(40.0, ((Number) t.get("batchQueries")).doubleValue());
            assertEquals(50.0, ((Number) t.get("patience")).doubleValue());
            // Epochs run: one metrics.csv line each after the header; before, 1 step per epoch and patience
            // 2 stopped every loss by epoch 3.
            long epochs = Files.readAllLines(out.resolve("metrics.csv")).size() - 1;
            assertTrue(epochs > 3, losses.get(i) + " ran " + epochs + " epochs");
            validation[i] = r.out().lines().filter(l -> l.contains("(best ")).findFirst().orElse(r.out());
        }
        assertNotEquals(validation[0], validation[1]);
    }
}
