package rankgrad.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/**
 * One {@link Scorer} per broadcast model per executor JVM, built from the model file's JSON on
 * first use and shared by every task of the JVM ({@code Scorer} is immutable and thread-safe).
 * The few most recent models are kept. Keyed by a random id drawn when the model was broadcast,
 * not by the broadcast's id: those restart at 0 with every SparkContext, and a JVM may see several
 * (local mode, tests), which would hand one context's model to another's tasks.
 */
final class ExecutorScorers {
    private static final int KEEP = 4;
    private static final Map<String, Scorer> SCORERS = new LinkedHashMap<>(8, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Scorer> eldest) {
            return size() > KEEP;
        }
    };

    private ExecutorScorers() {
    }

    static synchronized Scorer of(String key, Broadcast<String> modelJson) {
        return SCORERS.computeIfAbsent(key, k -> parse(modelJson.value()));
    }

    /**
     * The scorer of a model file's text of either form, a single model or an ensemble (a single
     * model's scorer is the one {@code RankingModel.scorer()} builds).
     */
    @SuppressWarnings("unchecked")
    static Scorer parse(String modelFile) {
        if (!(Json.parse(modelFile) instanceof Map<?, ?> root)) {
            throw new IllegalArgumentException("the top level is not a JSON object");
        }
        return ModelFile.ensembleFromMap((Map<String, Object>) root).scorer();
    }
}
