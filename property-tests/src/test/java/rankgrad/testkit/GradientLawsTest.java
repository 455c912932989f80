package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** The gradient laws accept a right backward and reject a wrong one with a shrunk, seeded report. */
class GradientLawsTest {
    /** Central differences of a quadratic are exact up to rounding (~1e-10 at h = 1e-6). */
    private static final double TOLERANCE = 1e-6;

    /** y_i = s_i^2 / 2 with backward g s (right) or -g s (sign flipped). */
    private static RankOperator halfSquare(double sign) {
        Op<Tensor> op = Op.of("halfSquare", in -> {
            Tensor y = in[0].copy();
            for (int i = 0; i < y.size(); i++) {
                y.set(i, y.get(i) * y.get(i) / 2);
            }
            return Op.result(y, in[0]);
        }, (s, g, needs) -> {
            Tensor dx = s.copy();
            for (int i = 0; i < dx.size(); i++) {
                dx.set(i, sign * g.get(i) * s.get(i));
            }
            return new Tensor[] {dx};
        });
        return (scores, batch) -> Var.apply(op, scores);
    }

    @Test
    void backwardLawAcceptsTheRightBackward() {
        qt().withExamples(50).forAll(RankingCases.distinctScores(3, 8))
                .checkAssert(c -> GradientLaws.assertBackwardMatchesCentralDifference(halfSquare(1), c, TOLERANCE));
    }

    @Test
    void backwardLawRejectsAFlippedSignWithAShrunkCase() {
        AssertionError e = assertThrows(AssertionError.class, () -> qt().withExamples(50)
                .forAll(RankingCases.distinctScores(3, 8))
                .checkAssert(c -> GradientLaws.assertBackwardMatchesCentralDifference(halfSquare(-1), c, TOLERANCE)));
        String report = e.getMessage();
        String smallest = report.substring(report.indexOf("Smallest found"), report.indexOf("Cause was"));
        // Shrunk to one document 1/16 from 0 (at score 0 both gradients vanish), other queries empty.
        List<String> nonEmptyScores = Pattern.compile("scores \\[([^]]+)]").matcher(smallest).results()
                .map(m -> m.group(1)).toList();
        assertEquals(List.of("0.0625"), nonEmptyScores, report);
        assertTrue(report.contains("gradient check failed"), report);
        assertTrue(report.contains("Seed was"), report);
    }

    @Test
    void float32LawRejectsAFloat32PathThatDiffers() {
        // exp computed in float64 then rounded is right; adding 1e-3 in float32 only is a wrong path.
        OpCase right = OpCase.of("exp", d -> new int[][] {{d[0]}}, -2, 2, x -> Ops.exp(x[0]));
        OpCase wrong = OpCase.of("exp + 1e-3 in float32", d -> new int[][] {{d[0]}}, -2, 2,
                x -> x[0].dtype() == DType.F32 ? Ops.add(Ops.exp(x[0]), Ops.scalar(x[0], 1e-3)) : Ops.exp(x[0]));
        // float32 rounding of e^2 and a sum of at most 7 weighted terms: about 1e-6 relative.
        qt().withExamples(30).forAll(right.examples(), longs().all())
                .checkAssert((ex, seed) -> GradientLaws.assertFloat32AgreesWithFloat64(right, ex, seed, 1e-4));
        AssertionError e = assertThrows(AssertionError.class, () -> qt().withExamples(30)
                .forAll(wrong.examples(), longs().all())
                .checkAssert((ex, seed) -> GradientLaws.assertFloat32AgreesWithFloat64(wrong, ex, seed, 1e-4)));
        assertTrue(e.getMessage().contains("exp + 1e-3 in float32: loss: float32"), e.getMessage());
    }

    @Test
    void plainGradientLawsLocateAWrongEntry() {
        // f(x) = x0^2 + 3 x1: gradient (2 x0, 3).
        double[] x = {0.5, -1.25};
        GradientLaws.assertGradientMatchesCentralDifference(v -> v[0] * v[0] + 3 * v[1], x, new double[] {1.0, 3.0},
                1e-6, TOLERANCE);
        GradientLaws.assertDirectionalDerivativeMatches(v -> v[0] * v[0] + 3 * v[1], x, new double[] {1.0, 3.0},
                new double[] {0.6, 0.8}, 1e-6, TOLERANCE);
        AssertionError coordinate = assertThrows(AssertionError.class, () -> GradientLaws
                .assertGradientMatchesCentralDifference(v -> v[0] * v[0] + 3 * v[1], x, new double[] {1.0, -3.0}, 1e-6,
                        TOLERANCE));
        assertTrue(coordinate.getMessage().startsWith("coordinate 1: gradient gives -3.0"), coordinate.getMessage());
        AssertionError direction = assertThrows(AssertionError.class, () -> GradientLaws
                .assertDirectionalDerivativeMatches(v -> v[0] * v[0] + 3 * v[1], x, new double[] {1.0, -3.0},
                        new double[] {0.6, 0.8}, 1e-6, TOLERANCE));
        assertTrue(direction.getMessage().startsWith("direction [0.6, 0.8]: gradient gives -1.8"), direction.getMessage());
    }
}
