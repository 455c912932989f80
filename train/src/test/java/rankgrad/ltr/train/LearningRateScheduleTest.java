package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LearningRateScheduleTest {
    /** Values of cos and divisions of small integers: exact up to a few double ulps. */
    private static final double ULPS = 1e-15;

    @Test
    void warmUpIsLinearUpToTheBaseRate() {
        LearningRateSchedule s = new LearningRateSchedule(4, LearningRateSchedule.Decay.CONSTANT, 1, 1);
        assertEquals(0.25, s.factor(1, 100), 0);
        assertEquals(0.75, s.factor(3, 100), 0);
        assertEquals(1.0, s.factor(4, 100), 0);
        assertEquals(1.0, s.factor(5, 100), 0);
        assertEquals(1.0, s.factor(1000, 100), 0);
    }

    @Test
    void cosineStartsAtOneAfterTheWarmUpAndEndsAtZero() {
        LearningRateSchedule s = LearningRateSchedule.cosine(10);
        assertEquals(1.0, s.factor(10, 110), 0, "the last warm-up step has the base rate");
        assertEquals(1.0, s.factor(11, 110), 0, "and so has the first after it");
        assertEquals((1 + Math.cos(Math.PI / 100)) / 2, s.factor(12, 110), ULPS);
        assertEquals(0.5, s.factor(61, 110), ULPS, "half way");
        assertEquals((1 + Math.cos(Math.PI * 99 / 100)) / 2, s.factor(110, 110), ULPS, "the last step is not wasted");
        assertEquals(0.0, s.factor(111, 110), ULPS, "past the end: 0");
        assertEquals(0.0, s.factor(130, 110), ULPS, "past the end it stays at 0");
        assertEquals(1.0, LearningRateSchedule.cosine(0).factor(1, 1), 0, "a run of one step: no decay before it ends");
    }

    @Test
    void stepDecayMultipliesByGammaEveryStepSizeSteps() {
        LearningRateSchedule s = new LearningRateSchedule(2, LearningRateSchedule.Decay.STEP, 3, 0.5);
        // Steps 3, 4, 5 at the base rate, 6, 7, 8 at half, 9.. at a quarter.
        assertEquals(1.0, s.factor(3, 50), 0);
        assertEquals(1.0, s.factor(5, 50), 0);
        assertEquals(0.5, s.factor(6, 50), 0);
        assertEquals(0.5, s.factor(8, 50), 0);
        assertEquals(0.25, s.factor(9, 50), 0);
    }

    @Test
    void constantIsTheDefaultAndRecognized() {
        assertTrue(TrainingConfig.defaults().schedule().isConstant());
        assertTrue(LearningRateSchedule.constant().isConstant());
        assertFalse(LearningRateSchedule.cosine(0).isConstant());
        assertFalse(new LearningRateSchedule(1, LearningRateSchedule.Decay.CONSTANT, 1, 1).isConstant());
    }

    @Test
    void badSettingsAreRejectedNamingTheSetting() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LearningRateSchedule(-1,
                LearningRateSchedule.Decay.COSINE, 1, 1)).getMessage().contains("warm-up"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LearningRateSchedule(0,
                LearningRateSchedule.Decay.STEP, 0, 1)).getMessage().contains("step size"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LearningRateSchedule(0,
                LearningRateSchedule.Decay.STEP, 1, 0)).getMessage().contains("gamma"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LearningRateSchedule.Decay.parse("linear"))
                .getMessage().contains("constant, cosine, step"));
        assertThrows(IllegalArgumentException.class, () -> LearningRateSchedule.constant().factor(0, 10));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainingConfig.defaults().withInputNoise(-1))
                .getMessage().contains("noise"));
    }
}
