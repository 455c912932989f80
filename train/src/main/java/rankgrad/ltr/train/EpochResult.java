package rankgrad.ltr.train;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one epoch gave.
 *
 * @param epoch 1-based epoch
 * @param trainLoss mean training loss over the epoch's batches
 * @param validation the selection metric on the validation set
 * @param test the selection metric on the test set (reported, never used for selection); NaN when
 *     the run has no test set
 * @param best whether this epoch is the best so far (the model kept)
 * @param seconds wall time of the epoch (informational; never part of a model or checkpoint, 0
 *     for an epoch read back from a checkpoint)
 */
public record EpochResult(int epoch, double trainLoss, double validation, double test, boolean best, double seconds) {

    /** As JSON values (wall time left out, so checkpoints and model files stay deterministic). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epoch", epoch);
        m.put("trainLoss", trainLoss);
        m.put("validation", Double.isFinite(validation) ? validation : null);
        if (!Double.isNaN(test)) {
            m.put("test", test);
        }
        return m;
    }
}
