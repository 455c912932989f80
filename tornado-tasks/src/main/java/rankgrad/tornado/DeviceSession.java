package rankgrad.tornado;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.TornadoDeviceType;
import uk.ac.manchester.tornado.api.runtime.TornadoRuntimeProvider;

/**
 * The TornadoVM side of the backend: one device and one {@link PairPlan} per kernel, each rebuilt
 * (a larger {@link ShapeClass}) only when a batch outgrows it. Everything that touches TornadoVM
 * types lives here, so the backend class itself loads without TornadoVM on the class path.
 *
 * <p>Not thread-safe: the backend serializes calls. Not final only so that a test can make a call
 * fail as a driver would.
 */
class DeviceSession implements AutoCloseable {
    /** System property choosing the device as "backend:device" indices (TornadoVM's numbering). */
    static final String DEVICE_PROPERTY = "rankgrad.tornado.device";

    private final TornadoDevice device;
    private final boolean profile;
    private ApproxRanksPlan approxRanks;
    private RankGradientPlan rankGradient;
    private HingeRanksPlan hingeRanks;
    private HingeRankGradientPlan hingeRankGradient;
    private LogisticPairsPlan logisticPairs;
    private TruncatedLambdasPlan truncatedLambdas;
    private long lastKernelNanos;

    DeviceSession(TornadoDevice device, boolean profile) {
        this.device = device;
        this.profile = profile;
    }

    /**
     * A session on the device of {@code -Drankgrad.tornado.device} or else TornadoVM's default
     * device; throws (a LinkageError without TornadoVM's runtime, a RuntimeException without a
     * device) when there is none.
     */
    static DeviceSession open(boolean profile) {
        TornadoRuntimeProvider.getTornadoRuntime();
        String spec = System.getProperty(DEVICE_PROPERTY);
        TornadoDevice device;
        if (spec == null || spec.isBlank()) {
            device = TornadoRuntimeProvider.getTornadoRuntime().getDefaultDevice();
        } else {
            String[] parts = spec.trim().split(":");
            if (parts.length != 2) {
                throw new IllegalArgumentException("-D" + DEVICE_PROPERTY + " must be backend:device (e.g. 0:1, as "
                        + "'tornado --devices' numbers them), got '" + spec + "'");
            }
            device = TornadoExecutionPlan.getDevice(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }
        if (device == null) {
            throw new IllegalStateException("TornadoVM reports no device");
        }
        return new DeviceSession(device, profile);
    }

    /** "name (BACKEND, TYPE)" of the device. */
    String describe() {
        return device.getPhysicalDevice().getDeviceName() + " (" + device.getTornadoVMBackend() + ", "
                + device.getDeviceType() + ")";
    }

    boolean isCpuDevice() {
        return device.getDeviceType() == TornadoDeviceType.CPU;
    }

    /** Device time of the last kernel in ns when the session profiles (0 otherwise, or if it ran as Java). */
    long lastKernelNanos() {
        return lastKernelNanos;
    }

    /** The shape class of the approximate-rank plan (null before its first call), for tests of plan reuse. */
    ShapeClass approxRanksShape() {
        return approxRanks == null ? null : approxRanks.shapeClass();
    }

    void approxRanks(float[] scores, int[] offsets, float alpha, float[] ranks) {
        approxRanks = fit(approxRanks, offsets, ApproxRanksPlan::new);
        lastKernelNanos = approxRanks.run(scores, offsets, alpha, ranks);
    }

    void rankGradient(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        rankGradient = fit(rankGradient, offsets, RankGradientPlan::new);
        lastKernelNanos = rankGradient.run(type, alpha, scores, labels, offsets, rankGrad, scoreGrad);
    }

    void hingeRanks(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
        hingeRanks = fit(hingeRanks, offsets, HingeRanksPlan::new);
        lastKernelNanos = hingeRanks.run(alpha, scores, labels, offsets, ranks);
    }

    void hingeRankGradient(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        hingeRankGradient = fit(hingeRankGradient, offsets, HingeRankGradientPlan::new);
        lastKernelNanos = hingeRankGradient.run(alpha, scores, labels, offsets, rankGrad, scoreGrad);
    }

    void logisticPairs(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts, int[] offsets,
            float[] scoreGrad, float[] cost) {
        logisticPairs = fit(logisticPairs, offsets, LogisticPairsPlan::new);
        lastKernelNanos = logisticPairs.run(sigma, scores, labels, gains, discounts, offsets, scoreGrad, cost);
    }

    void truncatedLambdas(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            PairTruncation truncation, int[] offsets, float[] scoreGrad, float[] pairLambdas) {
        truncatedLambdas = fit(truncatedLambdas, offsets, TruncatedLambdasPlan::new);
        lastKernelNanos = truncatedLambdas.run(sigma, scores, labels, gains, discounts, truncation.ranks(),
                truncation.level(), truncation.scoreDistance(), offsets, scoreGrad, pairLambdas);
    }

    /** Builds a plan for this device and profile setting. */
    @FunctionalInterface
    private interface PlanFactory<P extends PairPlan> {
        P create(ShapeClass shapeClass, TornadoDevice device, boolean profile);
    }

    /** {@code plan} if the batch fits, else a new plan of a class holding both (the old one is freed). */
    private <P extends PairPlan> P fit(P plan, int[] offsets, PlanFactory<P> factory) {
        int docs = offsets[offsets.length - 1];
        int queries = offsets.length - 1;
        if (plan != null && plan.shapeClass().holds(docs, queries)) {
            return plan;
        }
        ShapeClass shapeClass = plan == null ? ShapeClass.of(docs, queries) : plan.shapeClass().grownFor(docs, queries);
        if (plan != null) {
            plan.close();
        }
        return factory.create(shapeClass, device, profile);
    }

    /** Frees every plan's device buffers. */
    @Override
    public void close() {
        for (PairPlan plan : new PairPlan[] {approxRanks, rankGradient, hingeRanks, hingeRankGradient, logisticPairs,
            truncatedLambdas}) {
            if (plan != null) {
                plan.close();
            }
        }
        approxRanks = null;
        rankGradient = null;
        hingeRanks = null;
        hingeRankGradient = null;
        logisticPairs = null;
        truncatedLambdas = null;
    }
}
