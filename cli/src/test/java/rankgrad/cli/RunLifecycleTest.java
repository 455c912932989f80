package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static rankgrad.cli.CliTest.run;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * The life of a training run through the command line, end to end and in-process on small generated
 * data: a run's folder never answers for another run, one run per folder, divergence keeps the best
 * model, arguments are checked before data is read, resume keeps everything, damaged checkpoints
 * and overflowing models are named.
 */
class RunLifecycleTest {
    @TempDir
    Path dir;

    /** Generates cubic data (24 / 12 / 12 queries of 10 documents, 6 features) and returns its Fold1. */
    private Path data(String name, long seed) {
        Path root = dir.resolve(name);
        Run g = run("generate", "cubic", "--out", root.toString(), "--queries", "24,12,12", "--docs", "10", "--features", "6",
                "--seed", Long.toString(seed));
        assertEquals(0, g.code(), g.err());
        return root.resolve("Fold1");
    }

    /** {@code train} on a fold with the linear model (fast) unless {@code more} names another. */
    private static String[] train(Path fold, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("train", "--train", fold.resolve("train.txt").toString(), "--valid",
                fold.resolve("vali.txt").toString(), "--test", fold.resolve("test.txt").toString(), "--batch-queries", "8",
                "--patience", "0", "--out", out.toString()));
        args.addAll(List.of(more));
        if (!args.contains("--model")) {
            args.addAll(List.of("--model", "linear"));
        }
        return args.toArray(String[]::new);
    }

    @Test
    void aCheckpointOfOtherDataOfTheSameSizeIsRefusedAndFreshStartsOver() throws Exception {
        Path a = data("A", 1);
        Path b = data("B", 9);
        Path out = dir.resolve("reuse");
        assertEquals(0, run(train(a, out, "--epochs", "2")).code());
        String modelA = Files.readString(out.resolve("model.json"));

        Run refused = run(train(b, out, "--epochs", "2"));
        assertEquals(1, refused.code(), refused.out());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains("training data (checkpoint: ") && refused.err().contains("validation data")
                && refused.err().contains("test data"), refused.err());
        assertTrue(refused.err().contains("--fresh"), "says how to start over: " + refused.err());
        assertEquals(modelA, Files.readString(out.resolve("model.json")), "the refused run writes nothing");

        Run settings = run(train(a, out, "--epochs", "2", "--lr", "0.002"));
        assertEquals(1, settings.code());
        assertTrue(settings.err().contains("learning rate (checkpoint: 0.001; this run: 0.002)"), settings.err());

        Run fresh = run(train(b, out, "--epochs", "2", "--fresh"));
        assertEquals(0, fresh.code(), fresh.err());
        Path elsewhere = dir.resolve("b-alone");
        assertEquals(0, run(train(b, elsewhere, "--epochs", "2")).code());
        assertEquals(Files.readString(elsewhere.resolve("model.json")), Files.readString(out.resolve("model.json")),
                "--fresh trains B's model from the start");
        assertNotEquals(modelA, Files.readString(out.resolve("model.json")));
    }

    @Test
    void compareRefusesTheFolderOfAnotherComparison() throws Exception {
        Path a = data("A", 1).getParent();
        Path b = data("B", 9).getParent();
        Path out = dir.resolve("cmp");
        String[] args = {"compare", "--losses", "ranknet", "--folds", "1", "--epochs", "1", "--model", "linear", "--out",
            out.toString(), "--data"};
        assertEquals(0, run(concat(args, a.toString())).code());
        Run refused = run(concat(args, b.toString()));
        assertEquals(1, refused.code(), refused.out());
        assertTrue(refused.err().contains(out.resolve("Fold1").resolve("ranknet").resolve("checkpoint.json").toString())
                && refused.err().contains("training data") && refused.err().contains("--fresh"), refused.err());
        Run fresh = run(concat(concat(args, b.toString()), "--fresh"));
        assertEquals(0, fresh.code(), fresh.err());
    }

    @Test
    void aSecondRunIntoALockedFolderFailsFastAndARunAfterTheHolderEndsGoesOn() throws Exception {
        Path a = data("A", 1);
        Path out = dir.resolve("locked");
        Files.createDirectories(out);
        // The lock a running train holds (another process would hold the same operating-system lock).
        try (FileChannel channel = FileChannel.open(out.resolve(".rankgrad.lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock held = channel.lock()) {
            Run second = run(train(a, out, "--epochs", "1"));
            assertEquals(1, second.code(), second.out());
            assertEquals(1, second.err().lines().count(), second.err());
            assertTrue(second.err().contains("another rankgrad run is using " + out), second.err());
            assertFalse(second.out().contains("training"), "it fails before reading data: " + second.out());
            assertTrue(Files.notExists(out.resolve("model.json")));
        }
        Run after = run(train(a, out, "--epochs", "1"));
        assertEquals(0, after.code(), "a lock file left behind does not block: " + after.err());
    }

    @Test
    void divergenceStopsNamingEpochAndBatchAndWritesTheBestModel() throws Exception {
        Path a = data("A", 1);
        for (String lr : new String[] {"1e37", "1e10"}) {
            Path out = dir.resolve("div" + lr);
            Run r = run(train(a, out, "--epochs", "3", "--lr", lr, "--model", "R4.L"));
            assertEquals(1, r.code(), lr + ": " + r.err());
            assertTrue(r.out().matches("(?s).*training diverged at epoch \\d+, batch \\d+ of 3: .* is (NaN|-?Infinity); "
                    + "keeping .*"), lr + ": " + r.out() + r.err());
            assertEquals("", r.err(), lr);
            RankingModel kept = ModelFile.read(out.resolve("model.json"));
            assertEquals(6, kept.features(), "the best model so far is written, and it loads (every weight finite)");
        }
    }

    @Test
    void aValidationSetWithoutRelevantDocumentsIsRefusedBeforeTraining() throws Exception {
        Path a = data("A", 1);
        Path zero = dir.resolve("zero.txt");
        Files.write(zero, Files.readAllLines(a.resolve("vali.txt")).stream().map(l -> l.replaceFirst("^\\d+", "0")).toList());
        Run r = run("train", "--train", a.resolve("train.txt").toString(), "--valid", zero.toString(), "--epochs", "2",
                "--out", dir.resolve("z").toString());
        assertEquals(1, r.code(), r.out());
        // One error line; the small-data warning (24 training queries, batches of 64) may precede it.
        assertEquals(1, r.err().lines().filter(l -> !l.startsWith("rankgrad: warning: ")).count(), r.err());
        assertTrue(r.err().contains(zero.toString()) && r.err().contains("no query has a relevant document"), r.err());
    }

    static Stream<Arguments> badTrainingArguments() {
        return Stream.of(
                Arguments.of("--epochs", "0"), Arguments.of("--lr", "0"), Arguments.of("--lr", "-1"), Arguments.of("--lr", "NaN"),
                Arguments.of("--l2", "-1"), Arguments.of("--batch-queries", "0"), Arguments.of("--patience", "-1"),
                Arguments.of("--threads", "0"), Arguments.of("--normalization", "foo"), Arguments.of("--ymax", "0"),
                Arguments.of("--optimizer", "rmsprop"), Arguments.of("--model", "R7"), Arguments.of("--metric", "ndcg@x"));
    }

    @ParameterizedTest(name = "train {0} {1}")
    @MethodSource("badTrainingArguments")
    void aBadTrainingArgumentExitsTwoWithOneLineBeforeAnyDataIsRead(String option, String value) {
        // The data files do not exist: a check that ran after reading them would say so, with exit code 1.
        String[] base = {"--train", dir.resolve("absent.txt").toString(), "--valid", dir.resolve("absent.txt").toString(),
            "--out", dir.resolve("o").toString(), option, value};
        for (String command : new String[] {"train", "compare"}) {
            String[] args = command.equals("train") ? concat(new String[] {"train"}, base)
                    : new String[] {"compare", "--losses", "ranknet", "--data", dir.resolve("absent").toString(), "--out",
                        dir.resolve("o").toString(), option, value};
            Run r = run(args);
            assertEquals(2, r.code(), command + " " + option + " " + value + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("rankgrad " + command + ": " + option), r.err());
            assertTrue(Files.notExists(dir.resolve("o")), "nothing is created");
        }
    }

    @Test
    void anOutputFolderThatIsAFileOrUnderAFileExitsTwoBeforeAnyDataIsRead() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        for (Path out : new Path[] {file, file.resolve("sub")}) {
            Run r = run("train", "--train", dir.resolve("absent.txt").toString(), "--valid", dir.resolve("absent.txt").toString(),
                    "--out", out.toString());
            assertEquals(2, r.code(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("rankgrad train: --out: " + out) && r.err().contains("is a file, not a folder"),
                    r.err());
        }
    }

    @Test
    void anOutputFolderThatCannotBeWrittenExitsTwo() throws Exception {
        Path readOnly = Files.createDirectory(dir.resolve("read-only"));
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeTrue(!Files.isWritable(readOnly), "the user may write anywhere (root): nothing to check");
            Run r = run("train", "--train", dir.resolve("absent.txt").toString(), "--valid",
                    dir.resolve("absent.txt").toString(), "--out", readOnly.resolve("run").toString());
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().contains("--out: ") && r.err().contains("not writable"), r.err());
        } finally {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void theNoCommandMessageGivesItsHintOnce() {
        Run r = run();
        assertEquals(2, r.code());
        assertEquals("rankgrad: a command is required (see 'rankgrad --help')" + System.lineSeparator(), r.err());
    }

    /**
     * Runs {@code args} in-process and stops the run, like a kill, when its output reaches an
     * epoch's line: the epoch's checkpoint is written before its line is printed.
     */
    private static Run killedAt(String epochLine, String... args) {
        StringWriter seen = new StringWriter();
        Writer killer = new Writer() {
            @Override
            public void write(char[] buf, int off, int len) {
                seen.write(buf, off, len);
                if (seen.toString().contains(epochLine)) {
                    throw new IllegalStateException("killed");
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(killer, true), new PrintWriter(err, true));
        return new Run(code, seen.toString(), err.toString());
    }

    /** The epoch lines of a run's output without their wall times. */
    private static List<String> epochLines(String out) {
        return out.lines().filter(l -> l.startsWith("epoch ")).map(l -> l.replaceAll("  ([0-9.]+m?s|\\(checkpoint\\))$", ""))
                .toList();
    }

    @Test
    void aRunKilledAndResumedEndsWithEveryFileOfTheUninterruptedRun() throws Exception {
        Path a = data("A", 1);
        Path whole = dir.resolve("whole");
        Run uninterrupted = run(train(a, whole, "--epochs", "4"));
        assertEquals(0, uninterrupted.code(), uninterrupted.err());

        Path out = dir.resolve("killed");
        Run killed = killedAt("epoch   2", train(a, out, "--epochs", "4"));
        assertEquals(1, killed.code());
        assertTrue(Files.exists(out.resolve("checkpoint.json")) && Files.notExists(out.resolve("model.json")));
        Run resumed = run(train(a, out, "--epochs", "4"));
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals(Files.readString(whole.resolve("model.json")), Files.readString(out.resolve("model.json")));
        assertEquals(Files.readString(whole.resolve("metrics.csv")), Files.readString(out.resolve("metrics.csv")),
                "the test column of the epochs before the kill is kept");
        assertFalse(Files.readString(out.resolve("metrics.csv")).contains(",,"), "no blank cell");
        assertArrayEquals(Files.readAllBytes(whole.resolve("curves.png")), Files.readAllBytes(out.resolve("curves.png")),
                "the same curves, the test curve included");
        assertEquals(epochLines(uninterrupted.out()), epochLines(resumed.out()));
        assertTrue(resumed.out().contains("resuming at epoch 3 of 4 from " + out.resolve("checkpoint.json")), resumed.out());
    }

    @Test
    void aRunResumedAfterItsLastCheckpointPrintsItsFinalFigures() throws Exception {
        Path a = data("A", 1);
        Run uninterrupted = run(train(a, dir.resolve("whole"), "--epochs", "3"));
        Path out = dir.resolve("killed");
        assertEquals(1, killedAt("epoch   3", train(a, out, "--epochs", "3")).code());
        Run resumed = run(train(a, out, "--epochs", "3"));
        assertEquals(0, resumed.code(), resumed.err());
        assertEquals(epochLines(uninterrupted.out()), epochLines(resumed.out()), resumed.out());
        List<String> finalLines = uninterrupted.out().lines().filter(l -> l.startsWith("completed") || l.startsWith("test "))
                .toList();
        assertEquals(2, finalLines.size(), uninterrupted.out());
        for (String line : finalLines) {
            assertTrue(resumed.out().contains(line), line + " in " + resumed.out());
        }
    }

    @Test
    void aDamagedCheckpointSaysWhatIsWrongAndHowToStartOver() throws Exception {
        Path a = data("A", 1);
        Path out = dir.resolve("damaged");
        assertEquals(0, run(train(a, out, "--epochs", "1")).code());
        Path checkpoint = out.resolve("checkpoint.json");
        String good = Files.readString(checkpoint);
        String[][] damages = {
            {good.substring(0, good.length() / 2), "is damaged: it is not valid JSON"},
            {good.replaceFirst("\"epochsDone\": 1", "\"epochsDone\": \"one\""), "\"epochsDone\" is \"one\", not a whole number"},
        };
        for (String[] d : damages) {
            Files.writeString(checkpoint, d[0]);
            Run r = run(train(a, out, "--epochs", "1"));
            assertEquals(1, r.code(), r.out());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("rankgrad: " + checkpoint + " is damaged: ") && r.err().contains(d[1])
                    && r.err().contains("--fresh"), r.err());
        }
        assertEquals(0, run(train(a, out, "--epochs", "1", "--fresh")).code());
    }

    @Test
    void everyCommandThatScoresRefusesAModelWhoseScoresOverflow() throws Exception {
        Path a = data("A", 1);
        RankingModel m = RankingModel.create("linear", 6, new Normalization.None(), 1);
        m.network().namedParameters().values().forEach(p -> {
            for (int i = 0; i < p.value().size(); i++) {
                p.value().set(i, Float.MAX_VALUE);
            }
        });
        Path model = dir.resolve("huge.json");
        ModelFile.write(m, model);
        Path scores = dir.resolve("scores.tsv");
        Run predict = run("predict", "--model", model.toString(), "--data", a.resolve("test.txt").toString(), "--out",
                scores.toString());
        Run eval = run("eval", "--model", model.toString(), "--data", a.resolve("test.txt").toString());
        for (Run r : new Run[] {predict, eval}) {
            assertEquals(1, r.code(), r.out());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().matches("rankgrad: .*score of document \\d+ \\(0-based\\) of query \\S+ is (NaN|-?Infinity).*"
                    + "overflows float32.*\\R"), r.err());
        }
        assertTrue(Files.notExists(scores), "predict writes no scores file");
    }

    @Test
    void ymaxReachesEveryCommandThatComputesErr() throws Exception {
        Path a = data("A", 1);
        Path out = dir.resolve("run");
        assertEquals(0, run(train(a, out, "--epochs", "1", "--metric", "err@10", "--ymax", "8")).code());
        String test = a.resolve("test.txt").toString();
        String model = out.resolve("model.json").toString();
        Run four = run("eval", "--model", model, "--data", test, "--metrics", "err@10");
        Run eight = run("eval", "--model", model, "--data", test, "--metrics", "err@10", "--ymax", "8");
        assertEquals(0, eight.code(), eight.err());
        assertTrue(eight.out().contains("ERR ymax=8") && four.out().contains("ERR ymax=4"), eight.out());
        assertNotEquals(four.out().lines().filter(l -> l.startsWith("err@10")).toList(),
                eight.out().lines().filter(l -> l.startsWith("err@10")).toList(), "ERR depends on ymax");
        Path cmp = dir.resolve("cmp");
        Run compare = run("compare", "--losses", "ranknet", "--data", a.getParent().toString(), "--folds", "1", "--epochs",
                "1", "--model", "linear", "--metrics", "err@10", "--ymax", "8", "--out", cmp.toString());
        assertEquals(0, compare.code(), compare.err());
        assertTrue(Files.readString(cmp.resolve("compare.md")).contains("ERR ymax=8"));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
