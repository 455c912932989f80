package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;

/** Links planted in or as an output folder never make a command write into another file or folder. */
class HostileFilesTest {
    @TempDir
    Path dir;
    private Path fold;

    @BeforeEach
    void data() {
        Run g = run("generate", "cubic", "--out", dir.resolve("data").toString(), "--queries", "16,8,8", "--docs", "8",
                "--features", "4", "--seed", "3");
        assertEquals(0, g.code(), g.err());
        fold = dir.resolve("data").resolve("Fold1");
    }

    private Run train(Path out, String... more) {
        String[] base = {"train", "--train", fold.resolve("train.txt").toString(), "--valid", fold.resolve("vali.txt")
                .toString(), "--epochs", "1", "--model", "linear", "--patience", "0", "--out", out.toString(),
            // All 16 queries in one batch, as before small sets got smaller batches (and no warning).
            "--batch-queries", "16"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return run(args);
    }

    @Test
    void aLinkAtTheLockFileIsRefusedInOneLineAndItsTargetKept() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createSymbolicLink(out.resolve(".rankgrad.lock"), victim);
        Run r = train(out);
        assertEquals(1, r.code(), r.out());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("rankgrad: " + out.resolve(".rankgrad.lock") + " is a symbolic link;"), r.err());
        assertEquals("precious\n", Files.readString(victim));
        assertTrue(Files.notExists(out.resolve("model.json")));
    }

    @Test
    void anOutputFolderThatIsALinkIsResolvedOnceAndSaid() throws Exception {
        Path real = Files.createDirectories(dir.resolve("real"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        Run r = train(link);
        assertEquals(0, r.code(), r.err());
        assertEquals("rankgrad: --out " + link + " is a symbolic link; writing into " + real.toRealPath(),
                r.err().strip());
        assertTrue(Files.exists(real.resolve("model.json")));
        assertTrue(r.out().contains("wrote " + real.toRealPath().resolve("model.json")), r.out());
    }

    @Test
    void aLinkedEnsembleMemberFolderIsRefusedAndNothingWrittenThroughIt() throws Exception {
        Path out = Files.createDirectories(dir.resolve("out"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.createSymbolicLink(out.resolve("member-1"), elsewhere);
        Run r = train(out, "--ensemble", "2");
        assertEquals(1, r.code(), r.out());
        assertEquals("rankgrad: " + out.resolve("member-1") + " is a symbolic link; rankgrad writes a run's files only into"
                + " real folders inside its output folder: remove the link (rm " + out.resolve("member-1") + ") or write to"
                + " another folder", r.err().strip());
        try (var files = Files.list(elsewhere)) {
            assertFalse(files.findAny().isPresent(), "nothing was written through the link");
        }
    }
}
