package rankgrad.simd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorMath} gives the same bits interpreted and compiled by C2, the property every
 * vector kernel of rankgrad (the engine's and the ranking pair kernels, whose other operations
 * are exactly rounded IEEE arithmetic in every tier) relies on for reproducible losses. Two child
 * JVMs evaluate every function on the same inputs: one with {@code -Xint}, one with C2 only that
 * compiles {@link VectorMath} after 10 calls, before the evaluation that is compared. Replacing
 * the polynomial exp by {@code lanewise(VectorOperators.EXP)} (SVML when compiled) fails this.
 */
class VectorMathTiersTest {

    @Test
    void interpretedAndC2CompiledGiveTheSameBits() throws Exception {
        List<String> interpreted = run(List.of("-Xint"), 1);
        List<String> compiled = run(List.of("-XX:-TieredCompilation", "-Xbatch", "-XX:CompileThreshold=10",
                "-XX:CompileCommand=quiet", "-XX:CompileCommand=compileonly," + VectorMath.class.getName() + "::*",
                "-XX:+PrintCompilation"), 3);
        // The compiled child really compiled the functions (PrintCompilation lines name them).
        for (String f : List.of("::exp", "::sigmoid", "::tanh", "::log1pUnit")) {
            assertTrue(compiled.stream().anyMatch(l -> l.contains(VectorMath.class.getName() + f)),
                    "C2 did not compile VectorMath" + f + ":\n" + String.join("\n", compiled));
        }
        List<String> compiledBits = compiled.stream().filter(l -> l.matches("[a-zA-Z0-9]+ [0-9a-f]+")).toList();
        assertEquals(8, interpreted.size(), () -> String.join("\n", interpreted));
        assertEquals("bits " + VectorSupport.FLOAT.vectorBitSize(), interpreted.get(0));
        assertEquals(interpreted, compiledBits);
    }

    /** The child's output lines: its result lines, and in the compiled case the compilation log. */
    private static List<String> run(List<String> flags, int reps) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules", "jdk.incubator.vector"));
        String bits = System.getProperty("rankgrad.vector.bits");
        if (bits != null) {
            command.add("-Drankgrad.vector.bits=" + bits);
        }
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), VectorMathBits.class.getName(),
                Integer.toString(reps)));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "child JVM " + flags + " did not finish");
        assertEquals(0, child.exitValue(), "child JVM " + flags + " failed:\n" + out);
        return out.lines().map(String::strip).toList();
    }
}
