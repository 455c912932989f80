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
     * Default threshold of {@code auto}: 2^24 pair terms (e.g. 128 queries of 362 documents). One
     * device call has a fixed cost (input copies, launch, synchronization, output copy) of about
     * 0.3 ms measured on an NVIDIA H100 (scripts/bench-tornado: 0.38 ms for the two calls of a
     * 16 x 30 batch), in which the CPU backend on that machine's 16 cores does about 10 million
     * pair terms; the H100 overtook it between 11.5 and 23 million pair terms for batches of many
     * queries and near 25 million for one query (docs/gpu.md). Fewer CPU cores move the crossover
     * down: measure yours with scripts/bench-tornado and set {@code -Drankgrad.tornado.minPairs}.
     */
    static final long AUTO_MIN_PAIRS = 1L << 24;

    /** {@code tornado}: every batch on the device, whatever its kind and size. */
    static OffloadPolicy always() {
        return new OffloadPolicy("tornado", 0, true);
    }

    /**
     * {@code auto}: batches of at least {@code -Drankgrad.tornado.minPairs} (default {@link
     * #AUTO_MIN_PAIRS}) pair terms on a GPU or accelerator; OpenCL CPU devices never (the CPU
     * backend's SIMD kernels beat them on the same cores: docs/gpu.md).
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
