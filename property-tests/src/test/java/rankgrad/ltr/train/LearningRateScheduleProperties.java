package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;

/** Laws of the learning-rate schedules over random warm-ups, run lengths and steps. */
class LearningRateScheduleProperties {

    @Test
    void factorsLieInTheUnitIntervalAndRiseDuringWarmUp() {
        qt().withExamples(300).forAll(integers().between(0, 50), integers().between(1, 400), integers().between(1, 60),
                doubles().between(0.01, 1.0)).checkAssert((warmup, total, stepSize, gamma) -> {
                    for (LearningRateSchedule.Decay d : LearningRateSchedule.Decay.values()) {
                        LearningRateSchedule s = new LearningRateSchedule(warmup, d, stepSize, gamma);
                        double previous = 0;
                        for (int t = 1; t <= total + 5; t++) {
                            double f = s.factor(t, total);
                            assertTrue(f >= 0 && f <= 1, s + " step " + t + " of " + total + ": " + f);
                            if (t <= warmup) {
                                assertTrue(f > previous, s + " rises during warm-up at " + t);
                            } else if (t > warmup + 1 && d != LearningRateSchedule.Decay.CONSTANT) {
                                assertTrue(f <= previous, s + " never rises after the warm-up, at " + t);
                            }
                            previous = f;
                        }
                    }
                });
    }
}
