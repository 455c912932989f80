package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.LetorReader;

class CliTest {
    @TempDir
    Path dir;

    /** Exit code, standard output and standard error of one in-process run. */
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void generateWritesThreeFilesAndStatsReadsThem() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "20,10,10", "--docs", "12", "--features", "6");
        assertEquals(0, g.code(), g.err());
        Path train = dir.resolve("Fold1/train.txt");
        assertTrue(Files.exists(dir.resolve("Fold1/vali.txt")) && Files.exists(dir.resolve("Fold1/test.txt")));
        assertEquals(240, LetorReader.read(train).documents());
        Run s = run("stats", train.toString());
        assertEquals(0, s.code(), s.err());
        assertTrue(s.out().startsWith(train + ": 20 queries, 240 documents, 6 features"), s.out());
    }

    @Test
    void badArgumentsExitWithTwo() {
        Run r = run("generate", "cubic", "--docs", "many", "--out", dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--docs"), r.err());
        assertEquals(2, run("no-such-command").code());
    }

    @Test
    void missingInputFileExitsWithOneAndNamesIt() {
        Run r = run("stats", dir.resolve("missing.txt").toString());
        assertEquals(1, r.code());
        assertEquals("rankgrad: no such file: " + dir.resolve("missing.txt") + System.lineSeparator(), r.err());
    }
}
