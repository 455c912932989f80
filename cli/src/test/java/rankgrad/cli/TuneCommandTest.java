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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;

/** {@code tune}: the halving plan, the budget's conversion, and determinism of the winner end to end. */
class TuneCommandTest {
    @TempDir
    Path dir;

    @Test
    void rungsShrinkByEtaAndTheBudgetCountsEveryRungsEpochs() {
        assertEquals(List.of(9, 3), TuneCommand.rungSizes(9));
        assertEquals(List.of(27, 9, 3), TuneCommand.rungSizes(27));
        assertEquals(List.of(4, 2), TuneCommand.rungSizes(4));
        // 9 recipes x 1 epoch-unit + 3 recipes x 3 units x 3 seeds.
        assertEquals(9 + 27, TuneCommand.costUnits(List.of(9, 3)));
        assertEquals(27 + 27 + 81, TuneCommand.costUnits(List.of(27, 9, 3)));
        assertEquals(90_000_000L, TuneBudget.ofTime("5m").passes());
        assertEquals(27_000_000L, TuneBudget.ofTime("90s").passes());
        assertEquals(10, new TuneBudget(36L * 600 * 10 + 5).firstRungEpochs(600, 36));
        assertEquals(1, new TuneBudget(5).firstRungEpochs(600, 36), "never below one epoch");
        assertThrows(IllegalArgumentException.class, () -> TuneBudget.ofTime("5 minutes"));
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
            "--budget-passes", Long.toString(22L * 600 * 2), "--candidates", "4", "--seed", "3", "--out", out.toString()};
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
        // 4 recipes at 2 epochs (22 units of 600 documents x 2 epochs), the best 2 at 6 epochs as ensembles of 3 seeds.
        assertTrue(first.out().contains("rungs of [4, 2] recipes, 2 epoch(s) in rung 0"), first.out());
        String board = Files.readString(dir.resolve("a/leaderboard.md"));
        assertEquals(2 + 4 + 2, board.lines().count(), board);
        assertTrue(board.lines().skip(2).limit(2).allMatch(l -> l.matches(".*\\| +1 \\| +6 \\| +3 \\| +\\d\\.\\d{4} ± \\d\\.\\d{4} \\|"
                + " +\\d\\.\\d{4} \\| +\\d\\.\\d{4} \\|")), board);
        String command = Files.readString(dir.resolve("a/command.txt")).strip();
        assertTrue(command.startsWith("rankgrad train ") && command.contains(" --epochs 6 "), command);
        String[] args = command.substring("rankgrad ".length()).split(" ");
        Run again = run(args);
        assertEquals(0, again.code(), again.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/model.json")),
                Files.readAllBytes(dir.resolve("a/reproduced/model.json")), Arrays.toString(args));
    }
}
