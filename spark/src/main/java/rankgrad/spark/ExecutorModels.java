package rankgrad.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * One trainable model per broadcast model per task thread of an executor JVM: a training step
 * loads the step's weights into it and computes a shard's gradient, so it is mutable and never
 * shared between the threads that run tasks at the same time. Built from the model file's JSON on
 * first use; the few most recent models of a thread are kept. Keyed by a random id drawn when the
 * model was broadcast, not by the broadcast's id, which restarts at 0 with every SparkContext.
 */
final class ExecutorModels {
    private static final int KEEP = 2;
    private static final ThreadLocal<Map<String, RankingModel>> MODELS = ThreadLocal.withInitial(
            () -> new LinkedHashMap<>(4, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, RankingModel> eldest) {
                    return size() > KEEP;
                }
            });

    private ExecutorModels() {
    }

    static RankingModel of(String key, Broadcast<String> modelJson) {
        return MODELS.get().computeIfAbsent(key, k -> ModelFile.fromJson(modelJson.value()));
    }
}
