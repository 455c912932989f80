package rankgrad.tornado;

/**
 * When a batch goes to the TornadoVM device and when it stays on the CPU backend. A function of
 * the batch's size and the device kind only (never of timings taken at run time), so the same data
 * and seed take the same path, hence give the same model, on every run.
 *
 * @param name the backend name it is selected by
 * @param minPairs the least number of pair terms, sum over queries of m_q^2, worth a device call
 * @param cpuDevices whether an OpenCL CPU device (e.g. PoCL) is used at all
 */
record OffloadPolicy(String name, long minPairs, boolean cpuDevices) {
    /** System property overriding {@link #AUTO_MIN_PAIRS} (pair terms per batch). */
    static final String MIN_PAIRS_PROPERTY = "rankgrad.tornado.minPairs";

    /**
     * Default threshold of {@code auto}: 2^20 pair terms (e.g. 128 queries of 90 documents). The
     * CPU backend does about 1 to 5 Gpairs/s on 2 cores, so a batch below this costs it at most
     * about 1 ms, about the fixed cost measured for one device call (input copies, launch, output
     * copy) on PoCL here; a GPU's fixed cost is similar, so smaller batches cannot gain. README
     * ('GPU offload with TornadoVM') gives the measured crossover.
     */
    static final long AUTO_MIN_PAIRS = 1L << 20;

    /** {@code tornado}: every batch on the device, whatever its kind and size. */
    static OffloadPolicy always() {
        return new OffloadPolicy("tornado", 0, true);
    }

    /**
     * {@code auto}: batches of at least {@code -Drankgrad.tornado.minPairs} (default {@link
     * #AUTO_MIN_PAIRS}) pair terms on a GPU or accelerator; OpenCL CPU devices never (the CPU
     * backend's SIMD kernels beat them on the same cores: README).
     */
    static OffloadPolicy auto() {
        long min = Long.getLong(MIN_PAIRS_PROPERTY, AUTO_MIN_PAIRS);
        if (min < 0) {
            throw new IllegalArgumentException("-D" + MIN_PAIRS_PROPERTY + " must be >= 0, got " + min);
        }
        return new OffloadPolicy("auto", min, false);
    }

    /** Whether a batch of {@code pairs} pair terms goes to a device of this kind. */
    boolean offloads(long pairs, boolean cpuDevice) {
        return (cpuDevices || !cpuDevice) && pairs >= minPairs;
    }

    /** Pair terms of a ragged batch: sum over queries of m_q^2. */
    static long pairs(int[] offsets) {
        long sum = 0;
        for (int q = 0; q + 1 < offsets.length; q++) {
            long m = offsets[q + 1] - offsets[q];
            sum += m * m;
        }
        return sum;
    }
}
