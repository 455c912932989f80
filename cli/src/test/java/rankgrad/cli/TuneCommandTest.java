package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;

/** {@code tune}: the halving plan, the budget's conversion, and determinism of the winner end to end. */
class TuneCommandTest {
    @TempDir
    Path dir;

    @Test
    void rungsShrinkByEtaAndTheBudgetCountsEveryRungsEpochs() {
        // With a validation file down to the one winner; with folds down to eta, chosen by cross-validation.
        assertEquals(List.of(9, 3, 1), TuneCommand.rungSizes(9, 1));
        assertEquals(List.of(27, 9, 3, 1), TuneCommand.rungSizes(27, 1));
        assertEquals(List.of(4, 2, 1), TuneCommand.rungSizes(4, 1));
        assertEquals(List.of(9, 3), TuneCommand.rungSizes(9, 3));
        assertEquals(List.of(3), TuneCommand.rungSizes(3, 3));
        // 9 recipes x 1 epoch-unit + 3 recipes x 3 units + the winner x 9 units x 3 seeds.
        assertEquals(9 + 9 + 27, TuneCommand.costUnits(List.of(9, 3, 1), 3));
        assertEquals(27 + 27 + 81, TuneCommand.costUnits(List.of(27, 9, 3), 3));
        assertEquals(9 + 9, TuneCommand.costUnits(List.of(9, 3), 1), "with folds the last rung has one seed");
        assertEquals(300.0, TuneBudget.seconds("5m"));
        assertEquals(5400.0, TuneBudget.seconds("1.5h"));
        assertEquals(10, new TuneBudget(36L * 600 * 10 + 5).firstRungEpochs(600, 36));
        assertEquals(1, new TuneBudget(5).firstRungEpochs(600, 36), "never below one epoch");
        assertThrows(IllegalArgumentException.class, () -> TuneBudget.seconds("5 minutes"));
        assertThrows(IllegalArgumentException.class, () -> TuneBudget.seconds("0.5s"));
    }

    @Test
    void aTimeBudgetMeasuresBrieflyThenGivesEachRungTheEpochsThatFit() {
        // 1% of 5 minutes at the prior 300,000 passes per second is 900,000 passes: 4 epochs of the demo's
        // 200,000 documents; a tiny set is capped at 5 epochs, a huge one still gets 2 (the first carries the warm-up).
        assertEquals(4, TuneClock.probeEpochs(300, 200_000));
        assertEquals(TuneClock.MAX_PROBE_EPOCHS, TuneClock.probeEpochs(300, 2_387));
        assertEquals(TuneClock.MIN_PROBE_EPOCHS, TuneClock.probeEpochs(300, 50_000_000));
        // 3 recipes x 3 seeds = 9 units of 1,000 documents left: 100 s at 1,000 passes per second is 11 epochs,
        // whatever eta times the last rung's epochs would have been; never below one.
        assertEquals(11, TuneClock.nextRungEpochs(1_000, 9, 1_000, 100));
        assertEquals(1, TuneClock.nextRungEpochs(1_000, 9, 1_000, 0));
        // 5 epochs of 1,000 passes in 30 s of wall time: the first (20 s, the JVM's warm-up) is left out, the fastest
        // later one (1.6 s) is a warm epoch, and the 30 - 27.8 = 2.2 s besides the epochs are the run's fixed cost.
        TuneClock.Rate rate = TuneClock.Rate.measure(30, List.of(Map.of(1, 20.0, 2, 2.2, 3, 2.0, 4, 1.6, 5, 2.0)), 1_000);
        assertEquals(625, rate.passesPerSecond(), 1e-9);
        assertEquals(2.2, rate.trialSeconds(), 1e-9);
        // With folds each fold is a run: every fold's epochs count (fold 2's first is warm), the fixed cost is per run.
        TuneClock.Rate folds = TuneClock.Rate.measure(10, List.of(Map.of(1, 5.0, 2, 1.0), Map.of(1, 0.5, 2, 1.5)), 100);
        assertEquals(200, folds.passesPerSecond(), 1e-9);
        assertEquals(1.0, folds.trialSeconds(), 1e-9);
        rate = new TuneClock.Rate(500, 2);
        assertEquals(500L * (100 - 10 * 2), rate.passesIn(100, 10));
        assertEquals(0, rate.passesIn(10, 10), "fixed costs beyond the time left leave no passes");
        assertThrows(IllegalStateException.class, () -> TuneClock.Rate.measure(3, List.of(Map.of(1, 2.0)), 1_000));
    }

    @Test
    void epochsRunCountsMetricsRowsOfARunOrOfEveryEnsembleMember() throws Exception {
        Files.createDirectories(dir.resolve("one"));
        Files.writeString(dir.resolve("one/metrics.csv"), "epoch,loss\n1,0.5\n2,0.4\n3,0.3\n");
        assertEquals(3, TuneCommand.epochsRun(dir.resolve("one")));
        for (int k = 1; k <= 2; k++) {
            Files.createDirectories(dir.resolve("ens/member-" + k));
            Files.writeString(dir.resolve("ens/member-" + k + "/metrics.csv"), "epoch,loss\n1,0.5\n".repeat(1) + "2,0.4\n".repeat(k));
        }
        assertEquals(2 + 3, TuneCommand.epochsRun(dir.resolve("ens")));
        assertEquals(0, TuneCommand.epochsRun(dir.resolve("failed")));
    }

    @Test
    void theFixedRecipesComeFirstAndDrawsDependOnlyOnTheSeed() {
        List<TuneRecipe> a = TuneRecipe.candidates(9, new java.util.Random(4));
        assertEquals(TuneRecipe.fixed(), a.subList(0, 2));
        assertEquals(a, TuneRecipe.candidates(9, new java.util.Random(4)));
        assertEquals(9, a.stream().distinct().count());
    }

    private String[] tune(Path out) {
        return new String[] {"tune", "--train", dir.resolve("Fold1/train.txt").toString(), "--valid",
            dir.resolve("Fold1/vali.txt").toString(), "--test", dir.resolve("Fold1/test.txt").toString(),
            "--budget-passes", Long.toString(37L * 600 * 2), "--candidates", "4", "--seed", "3", "--out", out.toString()};
    }

    @Test
    void theSameCommandTwiceGivesTheSameWinnerAndModelAndItsTrainCommandReproducesIt() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "60,30,30", "--docs", "10", "--features", "5");
        assertEquals(0, g.code(), g.err());
        Run first = run(tune(dir.resolve("a")));
        assertEquals(0, first.code(), first.err());
        Run second = run(tune(dir.resolve("b")));
        assertEquals(0, second.code(), second.err());
        String winner = first.out().lines().filter(l -> l.startsWith("winner: ")).findFirst().orElseThrow(
                () -> new AssertionError(first.out()));
        assertEquals(winner, second.out().lines().filter(l -> l.startsWith("winner: ")).findFirst().orElseThrow());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/model.json")), Files.readAllBytes(dir.resolve("b/model.json")));
        // 4 recipes at 2 epochs, the best 2 at 6, the best one at 18 as an ensemble of 3 seeds: 4 + 2 x 3 + 9 x 3 = 37
        // units of 600 documents x 2 epochs.
        assertTrue(first.out().contains("rungs of [4, 2, 1] recipes, 2 epoch(s) in rung 0"), first.out());
        String board = Files.readString(dir.resolve("a/leaderboard.md"));
        assertEquals(2 + 4 + 2 + 1, board.lines().count(), board);
        assertTrue(board.lines().skip(2).limit(1).allMatch(l -> l.matches(".*\\| +2 \\| +18 \\| +3 \\| +\\d\\.\\d{4} ± \\d\\.\\d{4} \\|"
                + " +\\d\\.\\d{4} \\| +\\d\\.\\d{4} \\|")), board);
        String command = Files.readString(dir.resolve("a/command.txt")).strip();
        assertTrue(command.startsWith("rankgrad train ") && command.contains(" --epochs 18 "), command);
        String[] args = command.substring("rankgrad ".length()).split(" ");
        Run again = run(args);
        assertEquals(0, again.code(), again.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/model.json")),
                Files.readAllBytes(dir.resolve("a/reproduced/model.json")), Arrays.toString(args));
        // The plan it printed trains the same trials without a budget.
        assertTrue(first.out().contains("tune: plan 4:2,6,18 (--plan 4:2,6,18 trains it again on any machine)"), first.out());
        String[] byPlan = tune(dir.resolve("c"));
        byPlan[7] = "--plan";
        byPlan[8] = "4:2,6,18";
        Run planned = run(byPlan);
        assertEquals(0, planned.code(), planned.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/model.json")), Files.readAllBytes(dir.resolve("c/model.json")));
        byPlan[8] = "4:2,6";
        Run tooFew = run(byPlan);
        assertEquals(2, tooFew.code());
        assertTrue(tooFew.err().contains("--plan 4:2,6 names 2 rung(s); 4 recipes make 3 here: [4, 2, 1]"), tooFew.err());
    }

    @Test
    void aTimeBudgetRunTwiceReplaysThePlanItRanAndChoosesTheSameWinner() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "40,20,20", "--docs", "8", "--features", "5");
        assertEquals(0, g.code(), g.err());
        String before = System.getProperty("rankgrad.cache");
        System.setProperty("rankgrad.cache", dir.resolve("cache").toString());
        try {
            String[] command = {"tune", "--train", dir.resolve("Fold1/train.txt").toString(), "--valid",
                dir.resolve("Fold1/vali.txt").toString(), "--budget", "4s", "--candidates", "3", "--out", ""};
            command[command.length - 1] = dir.resolve("a").toString();
            Run first = run(command);
            assertEquals(0, first.code(), first.err());
            assertTrue(first.out().contains("document passes per second"), "measured: " + first.out());
            String plan = first.out().lines().filter(l -> l.startsWith("tune: plan ")).findFirst().orElseThrow(
                    () -> new AssertionError(first.out())).split(" ")[2];
            command[command.length - 1] = dir.resolve("b").toString();
            Run second = run(command);
            assertEquals(0, second.code(), second.err());
            assertTrue(second.out().contains("replaying plan " + plan + ", kept from this command's last run"), second.out());
            assertTrue(!second.out().contains("document passes per second"), "no second measurement: " + second.out());
            assertEquals(winner(first), winner(second));
            assertArrayEquals(Files.readAllBytes(dir.resolve("a/model.json")), Files.readAllBytes(dir.resolve("b/model.json")));
            // Another budget is another command: measured, not replayed; --recalibrate measures the same command again.
            command[6] = "5s";
            command[command.length - 1] = dir.resolve("c").toString();
            Run other = run(command);
            assertTrue(!other.out().contains("replaying"), other.out());
            command[6] = "4s";
            String[] again = Arrays.copyOf(command, command.length + 1);
            again[again.length - 1] = "--recalibrate";
            Run recalibrated = run(again);
            assertEquals(0, recalibrated.code(), recalibrated.err());
            assertTrue(recalibrated.out().contains("document passes per second"), recalibrated.out());
        } finally {
            if (before == null) {
                System.clearProperty("rankgrad.cache");
            } else {
                System.setProperty("rankgrad.cache", before);
            }
        }
    }

    @Test
    void aPlanNamesRecipesAndEpochsPerRung() {
        assertEquals(new TunePlan(9, List.of(5, 15, 45)), TunePlan.parse("9:5,15,45"));
        assertEquals("4:2,6,18", TunePlan.parse(" 4:2,6,18 ").text());
        for (String bad : List.of("2:4", "9:0,3,9", "9", "9:5;15", "9:1234567,3", "9:")) {
            assertThrows(IllegalArgumentException.class, () -> TunePlan.parse(bad), bad);
        }
    }

    private static String winner(Run r) {
        return r.out().lines().filter(l -> l.startsWith("winner: ")).findFirst().orElseThrow(() -> new AssertionError(r.out()));
    }

    @Test
    void oneFileWithKFoldsChoosesOnTheHeldOutPartsAndWritesTheWinnerTrainedOnTheWholeFile() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "45,15,15", "--docs", "8", "--features", "5");
        assertEquals(0, g.code(), g.err());
        Path file = dir.resolve("Fold1/train.txt");
        Run t = run("tune", "--data", file.toString(), "--folds", "3", "--budget-passes", "40000", "--candidates", "3",
                "--out", dir.resolve("cv").toString());
        assertEquals(0, t.code(), t.err());
        // 3 recipes, one rung: each trial is a 3-fold cross-validation, its spread over the folds.
        assertTrue(t.out().contains("over the held-out parts of 3 folds"), t.out());
        String board = Files.readString(dir.resolve("cv/leaderboard.md"));
        assertEquals(2 + 3, board.lines().count(), board);
        assertTrue(board.lines().skip(2).allMatch(l -> l.matches(".*\\| +\\d\\.\\d{4} ± \\d\\.\\d{4} \\| +\\|")), board);
        for (int k = 1; k <= 3; k++) {
            assertTrue(Files.isRegularFile(dir.resolve("cv/trials/rung0-00/Fold" + k + "/model.json")));
        }
        String command = Files.readString(dir.resolve("cv/command.txt")).strip();
        assertTrue(command.contains(" --ensemble 3 --split-valid 0.333333"), command);
        Run again = run(command.substring("rankgrad ".length()).split(" "));
        assertEquals(0, again.code(), again.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("cv/model.json")),
                Files.readAllBytes(dir.resolve("cv/reproduced/model.json")), command);
        Run both = run("tune", "--data", file.toString(), "--folds", "3", "--valid", file.toString(), "--out",
                dir.resolve("x").toString());
        assertEquals(2, both.code());
        assertTrue(both.err().contains("give --train FILE --valid FILE, or --data FILE --folds K (not both)"), both.err());
        Run two = run("tune", "--data", file.toString(), "--folds", "2", "--out", dir.resolve("y").toString());
        assertTrue(two.err().contains("--data needs --folds K with K >= 3"), two.err());
    }
}
