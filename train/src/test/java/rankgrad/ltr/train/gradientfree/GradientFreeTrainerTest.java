package rankgrad.ltr.train.gradientfree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.RankingModel;

class GradientFreeTrainerTest {

    @Test
    void spsa4ImprovesNdcgOfALinearModelOnCubicData() {
        CubicData gen = CubicData.create(10, 11);
        Dataset train = gen.sample("train", 200, 20, 1);
        Dataset valid = gen.sample("valid", 100, 20, 2);
        RankingModel model = RankingModel.create("linear", 10, new Normalization.QueryZScore(), 3);
        GradientFreeTrainer t = GradientFreeTrainer.of(Spsa.of(4, SpsaGains.spall(1.0, 0.1, 20), 5), 200, Metric.parse("ndcg@10"), 50);
        List<GradientFreeTrainer.Point> curve = t.fit(model, train, valid);
        GradientFreeTrainer.Point first = curve.get(0);
        GradientFreeTrainer.Point last = curve.get(curve.size() - 1);
        assertEquals(800, last.evaluations(), "SPSA:4 spends 4 evaluations per iteration");
        // A random linear scorer sits near 0.55 on this data; 200 SPSA:4 steps reach well above.
        assertTrue(last.train() > first.train() + 0.1, first + " -> " + last);
        assertTrue(last.validation() > first.validation() + 0.1, first + " -> " + last);
    }

    @Test
    void gradientFreeOptimizersAreParsedByName() {
        SpsaGains gains = SpsaGains.forIterations(0.5, 100);
        assertEquals(SpsaGains.spall(0.5, 0.05, 10), gains);
        assertEquals("spsa:4", GradientFreeOptimizer.parse("SPSA:4", gains, 1).name());
        assertEquals("fdsa", GradientFreeOptimizer.parse("fdsa", gains, 1).name());
        for (String bad : new String[] {"spsa:3", "spsa:0", "spsa:x", "spsa", "spsa:99999999999"}) {
            assertTrue(GradientFreeOptimizer.isGradientFree(bad), bad);
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> GradientFreeOptimizer.parse(bad, gains, 1), bad);
            assertTrue(e.getMessage().startsWith(bad + ": SPSA:F needs an even F >= 2"), e.getMessage());
        }
        org.junit.jupiter.api.Assertions.assertFalse(GradientFreeOptimizer.isGradientFree("ranknet"));
    }
}
