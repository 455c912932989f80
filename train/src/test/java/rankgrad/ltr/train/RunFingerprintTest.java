package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.model.RankingModel;

class RunFingerprintTest {
    private static final Dataset TRAIN = CubicData.create(5, 1).sample("train", 12, 8, 1);
    private static final Dataset VALID = CubicData.create(5, 1).sample("valid", 4, 8, 2);

    private static RunFingerprint of(Dataset train, RankingModel model, TrainingConfig config) {
        return RunFingerprint.of(model, RankNetLoss.create(), config, train, VALID, null);
    }

    private static RankingModel model(String arch, long seed) {
        return RankingModel.create(arch, 5, new Normalization.QueryZScore(), seed);
    }

    @Test
    void theSameDataAndSettingsGiveTheSameFingerprint() {
        Dataset copy = new Dataset("another name", 5, TRAIN.queries().stream()
                .map(q -> new Query(q.qid(), 5, q.x().clone(), q.labels().clone())).toList());
        assertEquals(of(TRAIN, model("R4.L", 1), TrainingConfig.defaults()), of(copy, model("R4.L", 1),
                TrainingConfig.defaults()), "the content identifies the data, not the name");
    }

    @Test
    void oneChangedValueOfTheDataOrOneSettingIsADifference() {
        RunFingerprint base = of(TRAIN, model("R4.L", 1), TrainingConfig.defaults());
        List<Query> queries = new ArrayList<>(TRAIN.queries());
        Query q = queries.get(7);
        float[] x = q.x().clone();
        x[3] = Math.nextUp(x[3]);
        queries.set(7, new Query(q.qid(), 5, x, q.labels()));
        List<String> data = base.differences(of(new Dataset("train", 5, queries), model("R4.L", 1), TrainingConfig.defaults()));
        assertEquals(1, data.size(), data.toString());
        assertTrue(data.get(0).matches("training data \\(checkpoint: 12 queries, 96 documents, 5 features, content sha256"
                + " [0-9a-f]{16}; this run: 12 queries, 96 documents, 5 features, content sha256 [0-9a-f]{16}\\)"), data.get(0));

        assertEquals(List.of("model (checkpoint: R4.L " + "(5 inputs, hidden [100, 100, 100, 100], Relu[], batch norm 0.1, 1"
                + " output, uniform_fan_in init, F32, weight seed 2); this run: R4.L (5 inputs, hidden [100, 100, 100, 100],"
                + " Relu[], batch norm 0.1, 1 output, uniform_fan_in init, F32, weight seed 1))"),
                base.differences(of(TRAIN, model("R4.L", 2), TrainingConfig.defaults())));
        assertEquals(List.of("optimizer (checkpoint: sgd; this run: adam)"), base.differences(of(TRAIN, model("R4.L", 1),
                TrainingConfig.defaults().withOptimizer(OptimizerKind.SGD))));
        assertEquals(List.of("metric conventions (checkpoint: " + TrainingConfig.defaults().conventions().withYmax(2).describe()
                + "; this run: " + TrainingConfig.defaults().conventions().describe() + ")"), base.differences(of(TRAIN,
                model("R4.L", 1), TrainingConfig.defaults().withConventions(TrainingConfig.defaults().conventions()
                        .withYmax(2)))));
    }
}
