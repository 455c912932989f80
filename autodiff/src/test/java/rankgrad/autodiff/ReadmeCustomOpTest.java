package rankgrad.autodiff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs the "Write your own differentiable op" snippet of docs/library.md and checks the page still shows it. */
class ReadmeCustomOpTest {

    // README:begin
    /** clamp(x, lo, hi) forward; the gradient passes straight through, as if the op were identity. */
    static Var clampStraightThrough(Var x, double lo, double hi) {
        Op<Void> clamp = Op.of("clampStraightThrough",
                in -> {
                    Tensor out = in[0].copy();
                    for (int i = 0; i < out.size(); i++) {
                        out.set(i, Math.min(hi, Math.max(lo, out.get(i))));
                    }
                    return Op.result(out, null);
                },
                (saved, gradOut, needsGrad) -> new Tensor[] {gradOut});
        return Var.apply(clamp, x);
    }
    // README:end

    @Test
    void clampForwardClampsAndBackwardPassesStraightThrough() {
        Var x = Var.param(Tensor.vector(-2.0, 0.5, 3.0));
        Var y = clampStraightThrough(x, 0, 1);
        Ops.sum(Ops.mul(y, y)).backward();
        assertArrayEquals(new double[] {0, 0.5, 1}, y.value().toDoubleArray(), 0.0);
        // dL/dy = 2y = [0, 1, 2], handed to x unchanged.
        assertArrayEquals(new double[] {0, 1, 2}, x.grad().toDoubleArray(), 0.0);
    }

    @Test
    void readmeShowsThisSnippet() throws IOException {
        String source = Files.readString(Path.of("src/test/java/rankgrad/autodiff/ReadmeCustomOpTest.java"));
        String snippet = source.substring(source.indexOf("// README:begin") + "// README:begin".length(),
                source.indexOf("// README:end"));
        String readme = Files.readString(Path.of("../docs/library.md"));
        assertTrue(normalize(readme).contains(normalize(snippet)),
                "docs/library.md must show the snippet of ReadmeCustomOpTest between the README markers");
    }

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
