package rankgrad.ltr.train.gradientfree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StochasticApproximationTest {
    private static final double[] TARGET = {1.0, -2.0, 0.5, 3.0, -1.0};

    /** A smooth bowl with its minimum at TARGET and unequal curvatures. */
    private static double bowl(double[] theta) {
        double s = 0;
        for (int i = 0; i < theta.length; i++) {
            double d = theta[i] - TARGET[i];
            s += (i + 1) * d * d;
        }
        return s;
    }

    @Test
    void spsaEstimateOfALinearFunctionIsUnbiased() {
        // For L = w . theta every estimate is (w . Delta) Delta, whose mean over Delta is w exactly.
        double[] w = {0.3, -1.0, 2.0};
        Spsa spsa = Spsa.of(2, SpsaGains.spall(0.1, 0.01, 0), 5);
        double[] mean = new double[3];
        int n = 20_000;
        for (int k = 0; k < n; k++) {
            double[] g = spsa.estimate(new double[3], th -> w[0] * th[0] + w[1] * th[1] + w[2] * th[2], 0);
            for (int i = 0; i < 3; i++) {
                mean[i] += g[i] / n;
            }
        }
        // Each coordinate's noise has sd about |w|_2 ~ 2.3, so the mean of 20,000 is within ~0.05 (3 sd).
        assertArrayEquals(w, mean, 0.05);
    }

    @Test
    void fdsaEstimateIsTheCentralDifference() {
        Fdsa fdsa = Fdsa.of(SpsaGains.spall(0.1, 1e-3, 0));
        double[] g = fdsa.estimate(new double[5], StochasticApproximationTest::bowl, 0);
        for (int i = 0; i < 5; i++) {
            // A quadratic's central difference is exact up to rounding of L ~ 20 at step 1e-3.
            assertEquals(-2 * (i + 1) * TARGET[i], g[i], 1e-8);
        }
    }

    @Test
    void spsaAndFdsaMinimizeASmoothBowl() {
        for (GradientFreeOptimizer opt : new GradientFreeOptimizer[] {
            Spsa.of(4, SpsaGains.spall(0.1, 0.1, 10), 1), Fdsa.of(SpsaGains.spall(0.1, 0.1, 10))}) {
            double[] theta = new double[5];
            double start = bowl(theta);
            for (int t = 0; t < 2000; t++) {
                opt.iterate(theta, StochasticApproximationTest::bowl, t);
            }
            assertTrue(bowl(theta) < 1e-3 * start, opt.name() + " reached " + bowl(theta) + " from " + start);
        }
    }

    @Test
    void sameSeedSameTrajectory() {
        double[] a = new double[5];
        double[] b = new double[5];
        Spsa x = Spsa.of(8, SpsaGains.spall(0.1, 0.1, 10), 42);
        Spsa y = Spsa.of(8, SpsaGains.spall(0.1, 0.1, 10), 42);
        for (int t = 0; t < 50; t++) {
            x.iterate(a, StochasticApproximationTest::bowl, t);
            y.iterate(b, StochasticApproximationTest::bowl, t);
        }
        assertArrayEquals(a, b, 0.0);
    }
}
