package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.shards.LocalShards;
import rankgrad.ltr.train.BatchGradient;
import rankgrad.ltr.train.StepGradient;
import rankgrad.ltr.train.shards.VirtualShards;

/**
 * Step gradients of the device run, each checked against the CPU backend's at the same weights,
 * batch-norm statistics and batch (one training trajectory, two evaluations per step): the step's
 * loss must be the same double, and every gradient element within {@code relativeBound} times the
 * largest element of the CPU's gradient. The CPU evaluation's batch-norm update is undone before the device's,
 * so the trajectory is exactly the device run's.
 */
final class LockstepGradient implements StepGradient {
    private final StepGradient local;
    private final RankingLoss cpuRunLoss;
    private final double relativeBound;
    private double largestRelative;
    private int steps;

    LockstepGradient(RankingModel model, Dataset train, RankingLoss cpuRunLoss, double relativeBound) {
        this.local = LocalShards.of(model, train, VirtualShards.one());
        this.cpuRunLoss = cpuRunLoss;
        this.relativeBound = relativeBound;
    }

    @Override
    public int queries() {
        return local.queries();
    }

    @Override
    public Map<String, String> identity() {
        return local.identity();
    }

    @Override
    public void startEpoch(int epoch, int[] order, int batchQueries) {
        local.startEpoch(epoch, order, batchQueries);
    }

    @Override
    public BatchGradient compute(RankingModel model, RankingLoss runLoss, int[] batch, long step) {
        Map<String, Tensor> start = copy(model.namedBuffers());
        BatchGradient cpu = local.compute(model, cpuRunLoss, batch, step);
        Map<String, Tensor> cpuGrads = copy(cpu.gradients());
        start.forEach((name, t) -> {
            Tensor live = model.namedBuffers().get(name);
            for (int i = 0; i < t.size(); i++) {
                live.set(i, t.get(i));
            }
        });
        BatchGradient device = local.compute(model, runLoss, batch, step);
        assertEquals(cpu.loss(), device.loss(), 0.0, "loss of step " + step);
        // One scale for the whole gradient: a tensor whose gradient vanishes by symmetry (the output
        // bias: ranking losses ignore a shift of a query's scores) holds rounding noise only.
        double scale = 0;
        for (Tensor want : cpuGrads.values()) {
            for (int i = 0; want != null && i < want.size(); i++) {
                scale = Math.max(scale, Math.abs(want.get(i)));
            }
        }
        for (Map.Entry<String, Tensor> e : cpuGrads.entrySet()) {
            Tensor want = e.getValue();
            Tensor got = device.gradients().get(e.getKey());
            assertEquals(want == null, got == null, "a gradient reached " + e.getKey() + " on one backend only");
            double diff = 0;
            for (int i = 0; want != null && i < want.size(); i++) {
                diff = Math.max(diff, Math.abs(got.get(i) - want.get(i)));
            }
            double relative = diff / scale;
            largestRelative = Math.max(largestRelative, relative);
            assertTrue(relative <= relativeBound, "gradient of " + e.getKey() + " at step " + step + ": max |device - cpu| "
                    + diff + " is " + relative + " of the largest |cpu| " + scale + " (bound " + relativeBound + ")");
        }
        steps++;
        return device;
    }

    /** The largest relative gradient difference met so far. */
    double largestRelative() {
        return largestRelative;
    }

    /** Steps checked so far. */
    int steps() {
        return steps;
    }

    private static Map<String, Tensor> copy(Map<String, Tensor> tensors) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        tensors.forEach((k, t) -> out.put(k, t == null ? null : t.copy()));
        return out;
    }
}
