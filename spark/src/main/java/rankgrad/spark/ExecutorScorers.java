package rankgrad.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/**
 * One {@link Scorer} per broadcast model per executor JVM, built from the model file's JSON on
 * first use and shared by every task of the JVM ({@code Scorer} is immutable and thread-safe).
 * The few most recent models are kept.
 */
final class ExecutorScorers {
    private static final int KEEP = 4;
    private static final Map<Long, Scorer> SCORERS = new LinkedHashMap<>(8, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Scorer> eldest) {
            return size() > KEEP;
        }
    };

    private ExecutorScorers() {
    }

    static synchronized Scorer of(Broadcast<String> modelJson) {
        return SCORERS.computeIfAbsent(modelJson.id(), id -> ModelFile.fromJson(modelJson.value()).scorer());
    }
}
