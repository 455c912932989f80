package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.exceptions.TornadoRuntimeException;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;

/**
 * The TornadoVM backend on the device TornadoVM picks (PoCL's OpenCL CPU device on the build
 * machine), against the scalar reference within {@link ErrorBound}; plus the proof that the kernels
 * ran on the device, plan reuse and growth, and the fallbacks. Tests run with
 * {@code -Dtornado.recover.bailout=False}: a kernel the device compiler rejects fails here instead
 * of running as sequential Java.
 */
class TornadoPairwiseBackendTest {
    private static final PairwiseBackend REFERENCE = PairwiseBackends.reference();
    private static TornadoPairwiseBackend device;

    @BeforeAll
    static void openDevice() {
        device = new TornadoPairwiseBackend(OffloadPolicy.always(), () -> DeviceSession.open(true));
        assertTrue(device.isAvailable(), "no TornadoVM device: is the test JVM launched with tornado-argfile?");
    }

    @AfterAll
    static void freeDevice() {
        device.deviceSession().close();
    }

    @Test
    void everyMethodMatchesTheReferenceOnRaggedBatches() {
        for (long seed = 1; seed <= 3; seed++) {
            // Empty, single-document and odd-sized queries, ties and signed zeros (RaggedBatch).
            RaggedBatch b = RaggedBatch.random(seed, new int[] {0, 1, 2, 5, 17, 64, 129}, 40);
            checkAll(b, 10f, 2f, 1f);
        }
    }

    @Test
    void largeQueryMatchesTheReference() {
        checkAll(RaggedBatch.single(7, 3000), 5f, 1f, 2f);
    }

    @Test
    void farApartScoresGiveNoNaN() {
        RaggedBatch b = RaggedBatch.random(4, new int[] {6}, 3);
        float[] s = b.scores();
        for (int i = 0; i < s.length; i++) {
            s[i] = (i % 3 - 1) * 1e30f;
        }
        checkAll(b, 10f, 2f, 1f);
        float[] ranks = b.newOutput();
        device.approxRanksF32(s, b.offsets(), 10f, ranks);
        for (float r : ranks) {
            assertTrue(Float.isFinite(r), "approximate rank " + r);
        }
    }

    @Test
    void kernelsRanOnTheDeviceNotAsJava() {
        long before = device.deviceCalls();
        RaggedBatch b = RaggedBatch.random(5, new int[] {3, 30}, 8);
        float[] out = b.newOutput();
        float[] cost = b.newOutput();
        Runnable[] calls = {
            () -> device.approxRanksF32(b.scores(), b.offsets(), 10f, out),
            () -> device.rankGradientF32(BackwardType.TYPE2, 10f, b.scores(), b.labels(), b.offsets(), b.upstream(), out),
            () -> device.hingeRanksF32(2f, b.scores(), b.labels(), b.offsets(), out),
            () -> device.hingeRankGradientF32(2f, b.scores(), b.labels(), b.offsets(), b.upstream(), out),
            () -> device.logisticPairsF32(1f, b.scores(), b.labels(), b.gains(), b.discounts(), b.offsets(), out, cost),
            () -> device.logisticPairsF32(1f, b.scores(), b.labels(), b.gains(), b.discounts(),
                    new PairTruncation(b.discounts(), 3, true), b.offsets(), out, cost),
        };
        for (Runnable call : calls) {
            call.run();
            // TornadoVM's profiler times kernels with OpenCL/CUDA events: a kernel that bailed out
            // to Java has no device time.
            assertTrue(device.deviceSession().lastKernelNanos() > 0, "no device kernel time");
        }
        assertEquals(before + calls.length, device.deviceCalls());
        assertFalse(device.hasFallenBack());
        TornadoDevice expected = TornadoRuntimeProvider.getTornadoRuntime().getDefaultDevice();
        assertEquals(expected.getPhysicalDevice().getDeviceName() + " (" + expected.getTornadoVMBackend() + ", "
                + expected.getDeviceType() + ")", device.device());
    }

    @Test
    void plansAreReusedWithinAShapeClassAndGrowBeyondIt() {
        DeviceSession session = new DeviceSession(TornadoRuntimeProvider.getTornadoRuntime().getDefaultDevice(), false);
        try (session) {
            RaggedBatch small = RaggedBatch.random(8, new int[] {10, 20}, 12);
            RaggedBatch large = RaggedBatch.random(9, new int[] {300}, 40);
            float[] out = small.newOutput();
            session.approxRanks(small.scores(), small.offsets(), 10f, out);
            ShapeClass first = session.approxRanksShape();
            session.approxRanks(small.scores(), small.offsets(), 3f, out);
            assertEquals(first, session.approxRanksShape(), "same batch size, same plan");
            float[] big = large.newOutput();
            session.approxRanks(large.scores(), large.offsets(), 10f, big);
            ShapeClass grown = session.approxRanksShape();
            assertTrue(grown.holds(large.docs(), 40) && grown.docs() > first.docs(), "grown to " + grown);
            session.approxRanks(small.scores(), small.offsets(), 10f, out);
            assertEquals(grown, session.approxRanksShape(), "plans never shrink");
            float[] ref = new float[small.docs()];
            REFERENCE.approxRanksF32(small.scores(), small.offsets(), 10f, ref);
            // A small batch in a larger plan: rows past it (the large batch's) must not leak in.
            ErrorBound.assertClose("approx ranks after growth", ref, out, small.offsets(), ErrorBound.ofPositiveSum(ref));
        }
    }

    @Test
    void aDeviceFailureFallsBackToTheCpuOnceAndForAll() {
        TornadoDevice real = TornadoRuntimeProvider.getTornadoRuntime().getDefaultDevice();
        int[] failures = {0};
        TornadoPairwiseBackend failing = new TornadoPairwiseBackend(OffloadPolicy.always(),
                () -> new DeviceSession(real, false) {
                    @Override
                    void approxRanks(float[] scores, int[] offsets, float alpha, float[] ranks) {
                        failures[0]++;
                        ranks[0] = 12345f; // a partial write, as a failing transfer could leave
                        throw new TornadoRuntimeException("injected driver failure");
                    }
                });
        RaggedBatch b = RaggedBatch.random(10, new int[] {4, 9}, 6);
        float[] out = b.newOutput();
        float[] ref = new float[b.docs()];
        REFERENCE.approxRanksF32(b.scores(), b.offsets(), 10f, ref);
        failing.approxRanksF32(b.scores(), b.offsets(), 10f, out);
        assertTrue(failing.hasFallenBack());
        ErrorBound.assertClose("fallback", ref, out, b.offsets(), ErrorBound.ofPositiveSum(ref));
        failing.approxRanksF32(b.scores(), b.offsets(), 10f, out);
        failing.hingeRanksF32(2f, b.scores(), b.labels(), b.offsets(), out);
        assertEquals(1, failures[0], "after a failure the device is not used again");
        assertEquals(0, failing.deviceCalls());
    }

    @Test
    void malformedArgumentsAreReportedByTheCpuBackendAndDoNotDisableTheDevice() {
        TornadoPairwiseBackend fresh = new TornadoPairwiseBackend();
        float[] scores = new float[3];
        assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> fresh.approxRanksF32(scores, new int[] {0, 5}, 1f, new float[5]));
        assertFalse(fresh.hasFallenBack());
    }

    @Test
    void autoKeepsEveryBatchOfACpuDeviceOnTheCpuBackend() {
        AutoPairwiseBackend auto = new AutoPairwiseBackend();
        assertEquals("auto", auto.name());
        RaggedBatch b = RaggedBatch.uniform(12, 128, 400);
        assertTrue(OffloadPolicy.pairs(b.offsets()) >= OffloadPolicy.AUTO_MIN_PAIRS, "the batch must reach the default threshold");
        float[] out = b.newOutput();
        auto.approxRanksF32(b.scores(), b.offsets(), 10f, out);
        boolean cpuDevice = auto.deviceSession().isCpuDevice();
        assertEquals(cpuDevice ? 0 : 1, auto.deviceCalls(), "20.5M pairs: on a GPU, above the threshold");
        float[] ref = new float[b.docs()];
        REFERENCE.approxRanksF32(b.scores(), b.offsets(), 10f, ref);
        ErrorBound.assertClose("auto", ref, out, b.offsets(), ErrorBound.ofPositiveSum(ref));
    }

    @Test
    void concurrentCallersGetTheirOwnResults() throws InterruptedException {
        RaggedBatch a = RaggedBatch.random(13, new int[] {7, 50}, 20);
        RaggedBatch b = RaggedBatch.random(14, new int[] {3, 90}, 9);
        float[] expectA = new float[a.docs()];
        float[] expectB = new float[b.docs()];
        device.approxRanksF32(a.scores(), a.offsets(), 10f, expectA);
        device.approxRanksF32(b.scores(), b.offsets(), 10f, expectB);
        float[][] got = new float[2][];
        Thread ta = new Thread(() -> got[0] = loop(a));
        Thread tb = new Thread(() -> got[1] = loop(b));
        ta.start();
        tb.start();
        ta.join();
        tb.join();
        // Same device, same inputs: bit-identical (each row's sum has one fixed order).
        assertArrayEquals(expectA, got[0]);
        assertArrayEquals(expectB, got[1]);
    }

    private static float[] loop(RaggedBatch b) {
        float[] out = b.newOutput();
        for (int i = 0; i < 20; i++) {
            device.approxRanksF32(b.scores(), b.offsets(), 10f, out);
        }
        return out;
    }

    /** All five methods (both logistic weightings, all backward types) against the reference. */
    private static void checkAll(RaggedBatch b, float alpha, float hingeSlope, float sigma) {
        int[] o = b.offsets();
        float[] got = b.newOutput();
        float[] ref = new float[b.docs()];
        device.approxRanksF32(b.scores(), o, alpha, got);
        REFERENCE.approxRanksF32(b.scores(), o, alpha, ref);
        ErrorBound.assertClose("approxRanksF32", ref, got, o, ErrorBound.ofPositiveSum(ref));
        for (BackwardType type : BackwardType.values()) {
            device.rankGradientF32(type, alpha, b.scores(), b.labels(), o, b.upstream(), got);
            REFERENCE.rankGradientF32(type, alpha, b.scores(), b.labels(), o, b.upstream(), ref);
            ErrorBound.assertClose("rankGradientF32 " + type, ref, got, o,
                    ErrorBound.ofRankGradient(type, alpha, b.upstream(), o));
        }
        device.hingeRanksF32(hingeSlope, b.scores(), b.labels(), o, got);
        REFERENCE.hingeRanksF32(hingeSlope, b.scores(), b.labels(), o, ref);
        ErrorBound.assertClose("hingeRanksF32", ref, got, o, ErrorBound.ofPositiveSum(ref));
        device.hingeRankGradientF32(hingeSlope, b.scores(), b.labels(), o, b.upstream(), got);
        REFERENCE.hingeRankGradientF32(hingeSlope, b.scores(), b.labels(), o, b.upstream(), ref);
        ErrorBound.assertClose("hingeRankGradientF32", ref, got, o, ErrorBound.ofHingeGradient(hingeSlope, b.upstream(), o));
        for (boolean lambda : new boolean[] {true, false}) {
            float[] gains = lambda ? b.gains() : null;
            float[] disc = lambda ? b.discounts() : null;
            float[] cost = b.newOutput();
            float[] refCost = new float[b.docs()];
            device.logisticPairsF32(sigma, b.scores(), b.labels(), gains, disc, o, got, cost);
            REFERENCE.logisticPairsF32(sigma, b.scores(), b.labels(), gains, disc, o, ref, refCost);
            ErrorBound.assertClose("logisticPairsF32 gradient", ref, got, o,
                    ErrorBound.ofLogisticGradient(sigma, b.labels(), gains, disc, o));
            ErrorBound.assertClose("logisticPairsF32 cost", refCost, cost, o, ErrorBound.ofPositiveSum(refCost));
        }
        assertFalse(device.hasFallenBack(), "the device failed (see the log)");
    }
}
