package rankgrad.autodiff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Runs the example of {@link Op}'s Javadoc and checks that the Javadoc still shows it. */
class OpJavadocExampleTest {

    private static Var roundStraightThrough(Var x) {
        // Javadoc:begin
        Op<Void> roundStraightThrough = Op.of("roundStraightThrough",
                in -> {
                    Tensor out = in[0].copy();
                    for (int i = 0; i < out.size(); i++) {
                        out.set(i, Math.rint(out.get(i)));
                    }
                    return Op.result(out, null);
                },
                (saved, gradOut, needsGrad) -> new Tensor[] {gradOut});   // identity gradient
        Var y = Var.apply(roundStraightThrough, x);
        // Javadoc:end
        return y;
    }

    @Test
    void forwardRoundsAndBackwardPassesTheGradientThrough() {
        Var x = Var.param(Tensor.vector(-1.7, 0.2, 2.5));
        Var y = roundStraightThrough(x);
        Ops.sum(Ops.mul(y, Var.constant(Tensor.vector(1.0, 2.0, 3.0)))).backward();
        // Math.rint rounds half to even: 2.5 -> 2.
        assertArrayEquals(new double[] {-2, 0, 2}, y.value().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {1, 2, 3}, x.grad().toDoubleArray(), 0.0);
    }

    @Test
    void opJavadocShowsThisExample() throws IOException {
        String test = Files.readString(Path.of("src/test/java/rankgrad/autodiff/OpJavadocExampleTest.java"));
        String example = test.substring(test.indexOf("// Javadoc:begin") + "// Javadoc:begin".length(),
                test.indexOf("// Javadoc:end"));
        String javadoc = Files.readString(Path.of("src/main/java/rankgrad/autodiff/Op.java")).replaceAll("\n \\*", "\n");
        assertTrue(normalize(javadoc).contains(normalize(example)),
                "Op's Javadoc must show the example of OpJavadocExampleTest between the Javadoc markers");
    }

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
