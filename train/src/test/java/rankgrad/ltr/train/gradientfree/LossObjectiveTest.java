package rankgrad.ltr.train.gradientfree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Var;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.model.RankingModel;

class LossObjectiveTest {
    private static final Dataset DATA = CubicData.create(6, 4).sample("train", 12, 10, 5);

    private static RankingModel model(DType dtype, int... hidden) {
        Mlp net = Mlp.builder(6).hidden(hidden).activation(Activation.tanh()).dtype(dtype).seed(9).build();
        return RankingModel.of("test", net, new Normalization.None());
    }

    @Test
    void parameterVectorRoundTripsAndWritesIntoTheModel() {
        RankingModel m = model(DType.F64, 3);
        ParameterVector p = ParameterVector.of(m);
        assertEquals(6 * 3 + 3 + 3 + 1, p.size(), "W1, b1, W2, b2 of a 6-3-1 network");
        double[] theta = p.get();
        p.set(theta);
        assertArrayEquals(theta, p.get());
        theta[p.size() - 1] += 0.5;
        p.set(theta);
        assertEquals(theta[p.size() - 1], m.network().parameters().get(3).value().get(0), "the last value is the output bias");
        assertThrows(IllegalArgumentException.class, () -> p.set(new double[p.size() + 1]));
    }

    @Test
    void valueIsTheLossOfTheModelAtTheta() {
        RankingModel m = model(DType.F64);
        LossObjective objective = LossObjective.of(m, RankNetLoss.create(), DATA);
        double[] theta = objective.parameters().get();
        double direct = RankNetLoss.create().loss(m.forward(DATA.featureMatrix(DATA.allQueries()).to(DType.F64)),
                DATA.labelBatch(DATA.allQueries())).value().item();
        assertEquals(direct, objective.value(theta), 0.0, "the same computation");
        theta[0] += 1.0;
        assertNotEquals(direct, objective.value(theta));
    }

    @Test
    void centralDifferencesOfTheObjectiveMatchRankNetsBackward() {
        RankingModel m = model(DType.F64, 4);
        LossObjective objective = LossObjective.of(m, RankNetLoss.create(), DATA);
        double[] theta = objective.parameters().get();
        double[] numeric = Fdsa.of(SpsaGains.spall(1, 1e-6, 0)).estimate(theta, objective, 0);
        objective.parameters().set(theta);
        m.eval();
        Var loss = RankNetLoss.create().loss(m.forward(DATA.featureMatrix(DATA.allQueries()).to(DType.F64)),
                DATA.labelBatch(DATA.allQueries()));
        loss.backward();
        int at = 0;
        double maxError = 0;
        for (Var p : m.network().parameters()) {
            for (int i = 0; i < p.value().size(); i++) {
                maxError = Math.max(maxError, Math.abs(p.grad().get(i) - numeric[at++]));
            }
        }
        // float64, c = 1e-6: truncation c^2 |L'''| plus rounding eps |L| / c stay below 1e-8 for a loss of order 10.
        assertTrue(maxError < 1e-7, "max |analytic - central difference| = " + maxError);
    }
}
