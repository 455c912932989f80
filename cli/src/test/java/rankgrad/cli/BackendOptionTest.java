package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --backend}: checked values, and {@code auto} trains without the TornadoVM module on the class path. */
class BackendOptionTest {
    @TempDir
    Path dir;

    @Test
    void anUnknownBackendIsOneLineNamingTheOption() {
        for (String command : new String[] {"train", "compare", "demo"}) {
            CliTest.Run r = CliTest.run(command, "--backend", "gpu");
            assertEquals(2, r.code(), r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("--backend") && r.err().contains("cpu, tornado, auto"), r.err());
        }
    }

    @Test
    void everyRegisteredBackendNameIsAccepted() {
        // rankgrad-ranking registers "reference" (the CPU backend on the scalar kernels) through
        // ServiceLoader; no list in the CLI names it.
        assertTrue(BackendOption.accepted().contains("reference"), BackendOption.accepted().toString());
        assertEquals("reference", new BackendOption.Name().convert("reference"));
        CliTest.Run r = CliTest.run("train", "--backend", "gpu");
        assertTrue(r.err().contains("reference"), r.err());
    }

    @Test
    void autoTrainsOnTheCpuWhereTornadoVmIsAbsent() throws Exception {
        assertEquals(0, CliTest.run("generate", "cubic", "--out", dir.toString(), "--queries", "12,6,6", "--docs", "8",
                "--features", "4").code());
        Path f = dir.resolve("Fold1");
        String previous = System.getProperty("rankgrad.pairwise");
        try {
            CliTest.Run r = CliTest.run("train", "--train", f.resolve("train.txt").toString(), "--valid",
                    f.resolve("vali.txt").toString(), "--loss", "approx-ndcg", "--model", "linear", "--epochs", "1",
                    "--backend", "auto", "--out", dir.resolve("out").toString());
            assertEquals(0, r.code(), r.err());
            assertEquals("auto", System.getProperty("rankgrad.pairwise"));
            assertTrue(Files.exists(dir.resolve("out/model.json")));
        } finally {
            if (previous == null) {
                System.clearProperty("rankgrad.pairwise");
            } else {
                System.setProperty("rankgrad.pairwise", previous);
            }
        }
    }
}
