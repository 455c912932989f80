package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * {@link TornadoPairwiseBackend}'s routing without a device: a stand-in session (no TornadoVM
 * device behind it) writes a marker value, so each result shows whether the call reached the
 * session or the CPU backend. Covers the policy, argument checks, the fallback after a failure and
 * an absent runtime; the same paths on a real device are in {@link TornadoPairwiseBackendTest}.
 */
@Tag(DeviceFree.TAG)
class BackendRoutingTest {
    private static final float MARK = 42f;
    private static final PairwiseBackend CPU = PairwiseBackends.cpu();

    private final RaggedBatch batch = RaggedBatch.random(6, new int[] {2, 5, 11}, 7);

    @Test
    void everyFloat32MethodReachesTheSessionWhenThePolicyOffloads() {
        StandInSession session = new StandInSession(false, false);
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> session);
        RaggedBatch b = batch;
        float[] out = b.newOutput();
        float[] cost = b.newOutput();
        backend.approxRanksF32(b.scores(), b.offsets(), 10f, out);
        assertMarked(out);
        backend.rankGradientF32(BackwardType.TYPE3, 10f, b.scores(), b.labels(), b.offsets(), b.upstream(), out);
        backend.hingeRanksF32(2f, b.scores(), b.labels(), b.offsets(), out);
        backend.hingeRankGradientF32(2f, b.scores(), b.labels(), b.offsets(), b.upstream(), out);
        backend.logisticPairsF32(1f, b.scores(), b.labels(), null, null, b.offsets(), out, cost);
        assertMarked(cost);
        float[] lambdas = b.newOutput();
        backend.logisticPairsF32(1f, b.scores(), b.labels(), b.gains(), b.discounts(),
                new PairTruncation(new float[b.docs()], 3, true), b.offsets(), out, lambdas);
        assertMarked(lambdas);
        assertEquals(List.of("approxRanks", "rankGradient", "hingeRanks", "hingeRankGradient", "logisticPairs",
                "truncatedLambdas"), session.calls);
        assertEquals(6, backend.deviceCalls());
        assertEquals("stand-in (TEST, GPU)", backend.device());
    }

    @Test
    void exactRanksStayOnTheCpuBackend() {
        StandInSession session = new StandInSession(false, false);
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> session);
        float[] got = batch.newOutput();
        float[] cpu = new float[batch.docs()];
        int[] tieKeys = tieKeys(batch.offsets());
        backend.exactRanksF32(batch.scores(), batch.offsets(), tieKeys, got);
        CPU.exactRanksF32(batch.scores(), batch.offsets(), tieKeys, cpu);
        assertArrayEquals(cpu, got);
        assertTrue(session.calls.isEmpty());
    }

    @Test
    void autoKeepsSmallBatchesAndCpuDevicesOnTheCpuBackend() {
        long pairs = OffloadPolicy.pairs(batch.offsets());
        StandInSession gpu = new StandInSession(false, false);
        TornadoPairwiseBackend atThreshold = new TornadoPairwiseBackend(new OffloadPolicy("auto", pairs, false), () -> gpu);
        float[] out = batch.newOutput();
        atThreshold.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        assertMarked(out);
        TornadoPairwiseBackend above = new TornadoPairwiseBackend(new OffloadPolicy("auto", pairs + 1, false), () -> gpu);
        above.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        assertEqualsCpuApproxRanks(out);
        StandInSession cpuDevice = new StandInSession(true, false);
        TornadoPairwiseBackend onCpuDevice = new TornadoPairwiseBackend(new OffloadPolicy("auto", 0, false),
                () -> cpuDevice);
        onCpuDevice.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        assertEqualsCpuApproxRanks(out);
        assertEquals(1, gpu.calls.size());
        assertTrue(cpuDevice.calls.isEmpty());
    }

    @Test
    void malformedArgumentsAreReportedByTheCpuBackendAndNeverReachTheSession() {
        StandInSession session = new StandInSession(false, false);
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> session);
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> backend.approxRanksF32(new float[3], new int[] {0, 5}, 1f, new float[5]));
        assertThrows(IndexOutOfBoundsException.class,
                () -> backend.hingeRanksF32(1f, new float[4], new float[2], new int[] {0, 4}, new float[4]));
        assertTrue(session.calls.isEmpty());
        assertFalse(backend.hasFallenBack());
    }

    @Test
    void aFailingSessionIsLeftForTheCpuOnceAndForAll() {
        StandInSession session = new StandInSession(false, true);
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> session);
        float[] out = batch.newOutput();
        backend.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        // The failed call is recomputed on the CPU: its partial write is overwritten.
        assertEqualsCpuApproxRanks(out);
        assertTrue(backend.hasFallenBack());
        assertTrue(session.closed, "the failed session's buffers are freed");
        backend.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        assertEquals(1, session.calls.size(), "after a failure the session is not used again");
        assertEquals(0, backend.deviceCalls());
    }

    @Test
    void anAbsentRuntimeMeansTheCpuBackendWithoutAFallback() {
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> {
            throw new NoClassDefFoundError("uk/ac/manchester/tornado/runtime/TornadoCoreRuntime");
        });
        assertFalse(backend.isAvailable());
        assertNull(backend.device());
        float[] out = batch.newOutput();
        backend.approxRanksF32(batch.scores(), batch.offsets(), 10f, out);
        assertEqualsCpuApproxRanks(out);
        assertFalse(backend.hasFallenBack());
    }

    /** Per query, the tie keys m-1, ..., 0: a permutation that differs from the document order. */
    private static int[] tieKeys(int[] offsets) {
        int[] keys = new int[offsets[offsets.length - 1]];
        for (int q = 0; q + 1 < offsets.length; q++) {
            for (int k = offsets[q]; k < offsets[q + 1]; k++) {
                keys[k] = offsets[q + 1] - 1 - k;
            }
        }
        return keys;
    }

    private void assertEqualsCpuApproxRanks(float[] out) {
        float[] cpu = new float[batch.docs()];
        CPU.approxRanksF32(batch.scores(), batch.offsets(), 10f, cpu);
        assertArrayEquals(cpu, out);
    }

    private static void assertMarked(float[] out) {
        float[] marked = new float[out.length];
        Arrays.fill(marked, MARK);
        assertArrayEquals(marked, out);
    }

    /** A session with no device behind it: records each call and writes {@link #MARK}, or fails like a driver. */
    private static final class StandInSession extends DeviceSession {
        final List<String> calls = new ArrayList<>();
        private final boolean cpuDevice;
        private final boolean fails;
        boolean closed;

        StandInSession(boolean cpuDevice, boolean fails) {
            super(null, false);
            this.cpuDevice = cpuDevice;
            this.fails = fails;
        }

        @Override
        String describe() {
            return "stand-in (TEST, " + (cpuDevice ? "CPU" : "GPU") + ")";
        }

        @Override
        boolean isCpuDevice() {
            return cpuDevice;
        }

        @Override
        void approxRanks(float[] scores, int[] offsets, float alpha, float[] ranks) {
            record("approxRanks", ranks);
        }

        @Override
        void rankGradient(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
                float[] rankGrad, float[] scoreGrad) {
            record("rankGradient", scoreGrad);
        }

        @Override
        void hingeRanks(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
            record("hingeRanks", ranks);
        }

        @Override
        void hingeRankGradient(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
                float[] scoreGrad) {
            record("hingeRankGradient", scoreGrad);
        }

        @Override
        void logisticPairs(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
                int[] offsets, float[] scoreGrad, float[] cost) {
            record("logisticPairs", scoreGrad);
            Arrays.fill(cost, MARK);
        }

        @Override
        void truncatedLambdas(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
                PairTruncation truncation, int[] offsets, float[] scoreGrad, float[] pairLambdas) {
            record("truncatedLambdas", scoreGrad);
            Arrays.fill(pairLambdas, MARK);
        }

        @Override
        public void close() {
            closed = true;
        }

        private void record(String call, float[] out) {
            calls.add(call);
            if (fails) {
                out[0] = MARK; // a partial write, as a failing transfer could leave
                throw new IllegalStateException("stand-in driver failure in " + call);
            }
            Arrays.fill(out, MARK);
        }
    }
}
