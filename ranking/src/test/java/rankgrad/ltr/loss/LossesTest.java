package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.RankMetric;

/** The registry: parsing names, its parameters and its errors. */
class LossesTest {

    @Test
    void everyFamilyHasItsOwnSyntaxAndAnExampleNoOtherFamilyClaims() {
        Set<String> syntaxes = new HashSet<>();
        for (LossFamily family : Losses.families()) {
            assertTrue(syntaxes.add(family.syntax()), "two families are called " + family.syntax());
            for (LossFamily other : Losses.families()) {
                if (other != family) {
                    assertTrue(!other.pattern().matcher(family.example()).matches(),
                            family.example() + " is claimed by " + other.syntax() + " too");
                }
            }
        }
    }

    @Test
    void parametersInTheNameReachTheLoss() {
        TwinSigmoidLoss pre = assertInstanceOf(TwinSigmoidLoss.class, Losses.parse("pre@7-type2", 1));
        assertEquals(RankMetric.precision(7), pre.metric());
        assertEquals(BackwardType.TYPE2, pre.type());
        assertEquals("precision@7-type2", pre.name());
        assertEquals(2.5, assertInstanceOf(ApproxNdcgLoss.class, Losses.parse("approx-ndcg:2.5", 1)).alpha());
        assertEquals(ApproxNdcgLoss.DEFAULT_ALPHA, assertInstanceOf(ApproxNdcgLoss.class, Losses.parse("approx-ndcg", 1))
                .alpha());
        assertEquals(4, assertInstanceOf(LambdaRankLoss.class, Losses.parse("LambdaRank@4", 1)).truncation());
        SmoothedDcgLoss annealed = assertInstanceOf(SmoothedDcgLoss.class, Losses.parse("shf-sdcg-annealed@3", 1));
        assertTrue(annealed.isHinge() && annealed.isAnnealed() && annealed.cutoff() == 3, annealed.name());
    }

    @Test
    void theScheduleLengthComesFromTheRunNotFromTheName() {
        RegShfSdcgLoss reg = assertInstanceOf(RegShfSdcgLoss.class, Losses.parse("reg-shf-sdcg@10", 1));
        assertEquals(0, reg.totalSteps());
        IllegalStateException e = assertThrows(IllegalStateException.class, reg::tau);
        assertTrue(e.getMessage().contains("forRun"), e.getMessage());
        assertEquals(500, reg.forRun(500).totalSteps());
        assertEquals(0.5, reg.forRun(500).atStep(250).tau(), 1e-12);
        // A run too short for the schedule is refused, not silently lengthened.
        assertThrows(IllegalArgumentException.class, () -> reg.forRun(2));
        // An explicit schedule length is kept.
        assertEquals(80, RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(10), 80).forRun(500).totalSteps());
    }

    @Test
    void badNamesSayWhatIsWrong() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg-type9", 1));
        assertTrue(unknown.getMessage().startsWith("unknown loss 'ndcg-type9'"), unknown.getMessage());
        for (LossFamily family : Losses.families()) {
            assertTrue(unknown.getMessage().contains(family.syntax()), unknown.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("approx-ndcg:fast", 1)).getMessage()
                .contains("'fast' is not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("approx-ndcg:-1", 1)).getMessage()
                .contains("alpha must be finite and > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("sdcg@99999999999", 1)).getMessage()
                .contains("too large"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("precision@0-type1", 1)).getMessage()
                .contains("cutoff k must be >= 1"));
    }

    @Test
    void helpHasOneLinePerFamilyWithItsExample() {
        String[] lines = Losses.help().split("\\R");
        assertEquals(Losses.families().size(), lines.length);
        for (int i = 0; i < lines.length; i++) {
            LossFamily family = Losses.families().get(i);
            assertTrue(lines[i].startsWith(family.syntax() + ": ") && lines[i].contains("e.g. " + family.example()),
                    lines[i]);
        }
    }
}
