package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.loss.ApproxNdcgLoss;
import rankgrad.ltr.loss.TwinSigmoidLoss;
import rankgrad.ltr.train.EpochResult;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

/**
 * A full training run (MLP, Adam, per-epoch validation) with its pairwise work on the TornadoVM
 * device gives, epoch by epoch, the validation NDCG@5 and training loss of the same run on the CPU
 * backend: the device only changes float32 rounding in the pair sums. For a loss that is a step
 * function of the scores (nDCG-type3) the training loss is compared step by step on one
 * trajectory (see {@link #twinSigmoidType3TrainsAsOnTheCpu()}).
 */
class TrainingOnDeviceTest {
    private static final CubicData DATA = CubicData.create(8, 5);
    private static final Dataset TRAIN = DATA.sample("train", 48, 40, 1);
    private static final Dataset VALID = DATA.sample("valid", 16, 40, 2);
    private static final TrainingConfig CONFIG = TrainingConfig.defaults().withEpochs(4).withBatchQueries(16)
            .withSeed(3).withPatience(0);
    /**
     * Device against CPU gradient, relative to the gradient's largest element. The loss op hands
     * both backends the same scores, labels, offsets and upstream rank gradient (the forward is
     * the same exact ranks with the same tie keys: the step losses are equal), so only the pair
     * sums differ: row k of the score gradient by at most (2m + 64) eps S_k = 1.7e-5 S_k
     * ({@link ErrorBound}, m = 40 documents a query, S_k = sum_j 2 alpha |g_k + g_j| for type 3).
     * Backpropagation through the network is linear in that score gradient and runs the same code
     * on both sides, so a parameter's gradient moves by 1.7e-5 of sum_k |J_k| S_k; S_k, a sum of
     * magnitudes, exceeds the signed rows by the cancellation within them, allowed here up to a
     * factor of about 6: 1e-4. Measured on PoCL: 3.6e-7 (a few float32 ulps).
     */
    private static final double GRADIENT_BOUND = 1e-4;
    /**
     * Validation NDCG@5 of two runs. Pair sums differ by float32 rounding (~1e-6 relative,
     * ErrorBound), which moves scores by far less than the gaps between them, but NDCG@5 is a step
     * function of the scores: two near-tied validation documents may swap. One swap of adjacent
     * places in one of the 16 queries moves its NDCG@5 by at most g_max (d_p - d_p+1) / IDCG &lt;=
     * 1/log2 6 (5th against 6th place), the mean by 0.024 (the CPU's own SIMD and scalar kernels
     * differ by such a swap: 0.0023 at epoch 1 of ndcg-type3 here).
     */
    private static final double VALIDATION_BOUND = 0.025;

    @Test
    void approxNdcgTrainsAsOnTheCpu() throws IOException {
        ApproxNdcgLoss loss = ApproxNdcgLoss.of(ApproxNdcgLoss.DEFAULT_ALPHA);
        TornadoPairwiseBackend device = onDevice();
        compare(loss.withBackend(PairwiseBackends.cpu()), loss.withBackend(device), device);
    }

    /**
     * The training loss of nDCG-type3 is minus the exact NDCG of the batch, a step function of the
     * scores: two independent runs, whose weights differ by float32 rounding after the first step,
     * may swap near-tied documents at any later step, and those swaps grow with training (since
     * the batch-norm networks start from the smaller uniform fan-in weights, Adam's relative steps
     * are 2.45 times larger and the runs part within the first epoch). So the device run is
     * checked step by step instead, on one trajectory ({@link LockstepGradient}): every step's
     * loss equals the CPU's at the same weights exactly (hence every epoch's training loss), and
     * its gradient within {@link #GRADIENT_BOUND}; validation NDCG@5 against an independent CPU
     * run within the one-swap bound {@link #VALIDATION_BOUND}.
     */
    @Test
    void twinSigmoidType3TrainsAsOnTheCpu() throws IOException {
        TwinSigmoidLoss loss = (TwinSigmoidLoss) Losses.parse("ndcg-type3", 7);
        TornadoPairwiseBackend device = onDevice();
        long steps = (long) CONFIG.epochs() * (TRAIN.queries().size() / CONFIG.batchQueries());
        RankingModel model = newModel();
        LockstepGradient lockstep = new LockstepGradient(model, TRAIN,
                loss.withBackend(PairwiseBackends.cpu()).forRun(steps), GRADIENT_BOUND);
        List<EpochResult> onDevice = Trainer.of(CONFIG).fit(model, loss.withBackend(device), lockstep, VALID, null,
                TrainingListener.none()).history();
        assertEquals(steps, lockstep.steps());
        assertTrue(device.deviceCalls() >= steps, "the pair work of every step on the device: " + device.deviceCalls());
        assertFalse(device.hasFallenBack());
        List<EpochResult> cpu = train(loss.withBackend(PairwiseBackends.cpu()));
        assertEquals(cpu.size(), onDevice.size());
        for (int e = 0; e < cpu.size(); e++) {
            assertEquals(cpu.get(e).validation(), onDevice.get(e).validation(), VALIDATION_BOUND,
                    "validation NDCG@5, epoch " + e);
        }
    }

    private static TornadoPairwiseBackend onDevice() {
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend();
        assertTrue(backend.isAvailable(), "no TornadoVM device");
        return backend;
    }

    private static void compare(RankingLoss cpuLoss, RankingLoss deviceLoss, TornadoPairwiseBackend backend)
            throws IOException {
        List<EpochResult> cpu = train(cpuLoss);
        List<EpochResult> device = train(deviceLoss);
        long batches = (long) CONFIG.epochs() * (TRAIN.queries().size() / CONFIG.batchQueries());
        assertTrue(backend.deviceCalls() >= batches, "the pair work of every batch on the device: " + backend.deviceCalls());
        assertFalse(backend.hasFallenBack());
        assertEquals(cpu.size(), device.size());
        for (int e = 0; e < cpu.size(); e++) {
            assertEquals(cpu.get(e).validation(), device.get(e).validation(), VALIDATION_BOUND,
                    "validation NDCG@5, epoch " + e);
            // ApproxNDCG's training loss is smooth in the scores and averages over all 48 queries:
            // it moves by float rounding only, amplified by the 12 steps; 1e-4 relative bounds that.
            assertEquals(cpu.get(e).trainLoss(), device.get(e).trainLoss(), 1e-4 * Math.abs(cpu.get(e).trainLoss()),
                    "training loss, epoch " + e);
        }
    }

    private static List<EpochResult> train(RankingLoss loss) throws IOException {
        return Trainer.of(CONFIG).fit(newModel(), loss, TRAIN, VALID, TrainingListener.none()).history();
    }

    private static RankingModel newModel() {
        return RankingModel.create("R5", TRAIN.features(), new Normalization.QueryZScore(), 11);
    }
}
