package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.KernelInfo;

class ScalarKernelWarningTest {
    @TempDir
    Path dir;

    @Test
    void noWarningOnTheVectorKernels() {
        assertEquals(Optional.empty(), ScalarKernelWarning.message(false, true, "auto"));
        assertEquals(Optional.empty(), ScalarKernelWarning.message(false, true, "vector"));
    }

    @Test
    void withoutTheIncubatorModuleTheWarningSaysWhichFlagToAdd() {
        String m = ScalarKernelWarning.message(true, false, "auto").orElseThrow();
        assertTrue(m.startsWith("WARNING: training on the scalar kernels"), m);
        assertTrue(m.contains("jdk.incubator.vector is not readable"), m);
        assertTrue(m.contains("--add-modules jdk.incubator.vector"), m);
    }

    @Test
    void forcedScalarKernelsAreNamedAsTheCause() {
        String m = ScalarKernelWarning.message(true, true, "scalar").orElseThrow();
        assertTrue(m.contains("forced by -Drankgrad.kernels=scalar"), m);
        assertTrue(!m.contains("--add-modules"), "the module is there; adding it changes nothing: " + m);
    }

    @Test
    void aReadableModuleWithScalarKernelsPointsAtTheLogLine() {
        String m = ScalarKernelWarning.message(true, true, "auto").orElseThrow();
        assertTrue(m.contains("logger rankgrad.autodiff"), m);
    }

    /** The train command prints the warning to stderr exactly when this JVM runs the scalar kernels. */
    @Test
    void trainWarnsOnStderrExactlyWhenTheKernelsAreScalar() {
        Path data = dir.resolve("data");
        assertEquals(0, CliTest.run("generate", "cubic", "--out", data.toString(), "--queries", "12,6,6", "--docs", "5",
                "--features", "4").code());
        Path f = data.resolve("Fold1");
        CliTest.Run r = CliTest.run("train", "--train", f.resolve("train.txt").toString(), "--valid",
                f.resolve("vali.txt").toString(), "--epochs", "1", "--model", "linear", "--out", dir.resolve("run").toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(KernelInfo.isScalar(), r.err().contains("WARNING: training on the scalar kernels"),
                "kernels " + KernelInfo.name() + ", stderr: " + r.err());
        assertTrue(!r.out().contains("WARNING"), "the warning goes to stderr only: " + r.out());
    }
}
