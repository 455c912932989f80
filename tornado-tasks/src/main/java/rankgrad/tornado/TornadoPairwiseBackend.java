package rankgrad.tornado;

import java.lang.System.Logger.Level;
import java.util.function.Consumer;
import java.util.function.Supplier;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * The {@link PairwiseBackend} on a TornadoVM device (OpenCL, PTX or SPIR-V): the five float32
 * methods and LightGBM's truncated pair terms run as the kernels of {@link RankKernels}, {@link HingeKernels} and {@link
 * LogisticPairKernels}, one work item per document row, through plans compiled once per batch
 * size class and reused; exact ranks (a sort) stay on the CPU backend, and float64 never reaches a
 * backend ({@link rankgrad.ltr.rank.Float64Reference}).
 *
 * <p>Selected with {@code -Drankgrad.pairwise=tornado} (every batch on the device) or {@code auto}
 * ({@link AutoPairwiseBackend}: large batches on a GPU, the rest on the CPU), or {@code --backend}
 * on the command line; the JVM must be launched with TornadoVM's {@code tornado-argfile}.
 * Registered through {@link java.util.ServiceLoader}; constructing it touches no TornadoVM class,
 * so it loads even where TornadoVM is absent, and then reports {@link #isAvailable()} false.
 *
 * <pre>{@code
 * PairwiseBackend gpu = PairwiseBackends.byName("tornado"); // cpu, logged, if no device
 * RankingLoss loss = ApproxNdcgLoss.of(10).withBackend(gpu);
 * }</pre>
 *
 * <p>Failures: any error from TornadoVM (compilation, device memory, driver) logs one warning and
 * switches this backend to the CPU backend for the rest of the run; the failed call is recomputed
 * there, so a caller never sees a partial or wrong result. Malformed arguments are left to the CPU
 * backend, which reports them.
 *
 * <p>Results equal the scalar reference within float32 rounding (the device's exp and log differ
 * from Java's by a few ulps; each row sums its pairs in the reference's order), and are the same on
 * every run on a given device. Thread-safe: calls are serialized on the device.
 */
public sealed class TornadoPairwiseBackend implements PairwiseBackend permits AutoPairwiseBackend {
    private static final System.Logger LOG = System.getLogger("rankgrad.tornado");

    private final OffloadPolicy policy;
    private final Supplier<DeviceSession> opener;
    private final PairwiseBackend cpu;
    private final Object lock = new Object();
    /** null until the first use; then the session, or none (unavailable or failed). */
    private DeviceSession session;
    private boolean probed;
    private boolean failed;
    private long deviceCalls;

    /** The {@code tornado} backend: every batch on the device (used by {@link java.util.ServiceLoader}). */
    public TornadoPairwiseBackend() {
        this(OffloadPolicy.always(), () -> DeviceSession.open(false));
    }

    /** A backend with the given policy on the session {@code opener} makes (on first use). */
    TornadoPairwiseBackend(OffloadPolicy policy, Supplier<DeviceSession> opener) {
        this.policy = policy;
        this.opener = opener;
        this.cpu = PairwiseBackends.cpu();
    }

    @Override
    public String name() {
        return policy.name();
    }

    /** Whether TornadoVM's runtime is loaded and reports a device (probed once). */
    @Override
    public boolean isAvailable() {
        synchronized (lock) {
            return session() != null;
        }
    }

    /** Calls that ran on the device so far. */
    public long deviceCalls() {
        synchronized (lock) {
            return deviceCalls;
        }
    }

    /** Whether a TornadoVM failure has switched this backend to the CPU. */
    public boolean hasFallenBack() {
        synchronized (lock) {
            return failed;
        }
    }

    /** The device's description, or null when there is none. */
    public String device() {
        synchronized (lock) {
            DeviceSession s = session();
            return s == null ? null : s.describe();
        }
    }

    /** The device session (null without one), for tests that read its last profile. */
    DeviceSession deviceSession() {
        synchronized (lock) {
            return session();
        }
    }

    @Override
    public void approxRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks) {
        if (!wellFormed(offsets, scores, ranks)) {
            cpu.approxRanksF32(scores, offsets, alpha, ranks);
            return;
        }
        run("approxRanksF32", offsets, s -> s.approxRanks(scores, offsets, alpha, ranks),
                () -> cpu.approxRanksF32(scores, offsets, alpha, ranks));
    }

    @Override
    public void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad) {
        if (type == null || !wellFormed(offsets, scores, labels, rankGrad, scoreGrad)) {
            cpu.rankGradientF32(type, alpha, scores, labels, offsets, rankGrad, scoreGrad);
            return;
        }
        run("rankGradientF32", offsets, s -> s.rankGradient(type, alpha, scores, labels, offsets, rankGrad, scoreGrad),
                () -> cpu.rankGradientF32(type, alpha, scores, labels, offsets, rankGrad, scoreGrad));
    }

    @Override
    public void hingeRanksF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
        if (!wellFormed(offsets, scores, labels, ranks)) {
            cpu.hingeRanksF32(alpha, scores, labels, offsets, ranks);
            return;
        }
        run("hingeRanksF32", offsets, s -> s.hingeRanks(alpha, scores, labels, offsets, ranks),
                () -> cpu.hingeRanksF32(alpha, scores, labels, offsets, ranks));
    }

    @Override
    public void hingeRankGradientF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        if (!wellFormed(offsets, scores, labels, rankGrad, scoreGrad)) {
            cpu.hingeRankGradientF32(alpha, scores, labels, offsets, rankGrad, scoreGrad);
            return;
        }
        run("hingeRankGradientF32", offsets, s -> s.hingeRankGradient(alpha, scores, labels, offsets, rankGrad,
                scoreGrad), () -> cpu.hingeRankGradientF32(alpha, scores, labels, offsets, rankGrad, scoreGrad));
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            int[] offsets, float[] scoreGrad, float[] cost) {
        boolean weightsOk = gains == null || wellFormed(offsets, gains, discounts);
        if (!weightsOk || !wellFormed(offsets, scores, labels, scoreGrad, cost)) {
            cpu.logisticPairsF32(sigma, scores, labels, gains, discounts, offsets, scoreGrad, cost);
            return;
        }
        run("logisticPairsF32", offsets, s -> s.logisticPairs(sigma, scores, labels, gains, discounts, offsets,
                scoreGrad, cost), () -> cpu.logisticPairsF32(sigma, scores, labels, gains, discounts, offsets,
                scoreGrad, cost));
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            PairTruncation truncation, int[] offsets, float[] scoreGrad, float[] pairLambdas) {
        if (truncation == null || !wellFormed(offsets, scores, labels, gains, discounts, truncation.ranks(), scoreGrad,
                pairLambdas)) {
            cpu.logisticPairsF32(sigma, scores, labels, gains, discounts, truncation, offsets, scoreGrad, pairLambdas);
            return;
        }
        run("logisticPairsF32 (truncated)", offsets, s -> s.truncatedLambdas(sigma, scores, labels, gains, discounts,
                truncation, offsets, scoreGrad, pairLambdas), () -> cpu.logisticPairsF32(sigma, scores, labels, gains,
                discounts, truncation, offsets, scoreGrad, pairLambdas));
    }

    /** Exact ranks are a sort: the CPU backend's. */
    @Override
    public void exactRanksF32(float[] scores, int[] offsets, int[] tieKeys, float[] ranks) {
        cpu.exactRanksF32(scores, offsets, tieKeys, ranks);
    }

    /** Runs {@code onDevice} if the policy sends this batch there; on any TornadoVM failure, {@code onCpu}. */
    private void run(String method, int[] offsets, Consumer<DeviceSession> onDevice, Runnable onCpu) {
        synchronized (lock) {
            DeviceSession s = session();
            if (s == null || failed || !policy.offloads(OffloadPolicy.pairs(offsets), s.isCpuDevice())) {
                onCpu.run();
                return;
            }
            try {
                onDevice.accept(s);
                deviceCalls++;
            } catch (VirtualMachineError e) {
                throw e;
            } catch (RuntimeException | Error e) {
                failed = true;
                LOG.log(Level.WARNING, "rankgrad pairwise backend " + name() + ": TornadoVM failed in " + method
                        + " on " + s.describe() + " (" + e + "); using cpu from now on", e);
                closeQuietly(s);
                onCpu.run();
            }
        }
    }

    /** The session, opened on first use (one log line naming the device); null if TornadoVM or a device is missing. */
    private DeviceSession session() {
        if (!probed) {
            probed = true;
            try {
                session = opener.get();
                LOG.log(Level.INFO, "rankgrad pairwise backend " + name() + ": TornadoVM on " + session.describe()
                        + offloadNote(session));
            } catch (VirtualMachineError e) {
                throw e;
            } catch (RuntimeException | LinkageError e) {
                LOG.log(Level.INFO, "rankgrad pairwise backend " + name() + ": no TornadoVM runtime or device here ("
                        + e + "); launch java with @$TORNADOVM_HOME/tornado-argfile");
                session = null;
            }
        }
        return session;
    }

    private String offloadNote(DeviceSession s) {
        if (policy.minPairs() == 0) {
            return "";
        }
        if (s.isCpuDevice() && !policy.cpuDevices()) {
            return "; a CPU device: every batch stays on the cpu backend (faster on the same cores)";
        }
        return "; batches of at least " + policy.minPairs() + " pair terms go to the device";
    }

    private static void closeQuietly(DeviceSession s) {
        try {
            s.close();
        } catch (RuntimeException | Error e) {
            // The device already failed once; its buffers go with the process.
        }
    }

    /** Offsets non-decreasing from 0 and every array long enough: otherwise the CPU backend reports the error. */
    private static boolean wellFormed(int[] offsets, float[]... arrays) {
        if (offsets == null || offsets.length < 2 || offsets[0] < 0) {
            return false;
        }
        for (int q = 0; q + 1 < offsets.length; q++) {
            if (offsets[q + 1] < offsets[q]) {
                return false;
            }
        }
        int end = offsets[offsets.length - 1];
        if (end == offsets[0]) {
            return false;
        }
        for (float[] a : arrays) {
            if (a == null || a.length < end) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return name() + "(TornadoVM)";
    }
}
