package rankgrad.simd.internal;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The Vector API idioms shared by every SIMD kernel of rankgrad (the engine's {@code
 * VectorKernels} and {@code VectorGemm}, nn's batch-norm and Adam kernels, the ranking pair
 * kernels of {@code rankgrad.ltr}), in one place.
 *
 * <p>The shape is that of {@code FloatVector.SPECIES_PREFERRED} (16 float lanes with AVX-512, 8
 * with AVX2, 4 with NEON), or the width named by the system property {@code rankgrad.vector.bits}
 * (64, 128, 256 or 512) so tests can exercise narrower vectors on wide hardware; {@link #FLOAT}
 * and {@link #DOUBLE} both have it. It is read once, into {@code static final} fields: C2 only
 * compiles vector operations to SIMD instructions when the species is a constant.
 *
 * <p>Loop shape used by the elementwise kernels: only when {@code n > 2 * LANES} is the vector
 * path worth its setup; then {@code loopBound} full vectors, followed by a scalar tail. Reductions
 * keep several independent accumulators (FMA latency is 4 cycles, throughput two per cycle, so one
 * accumulator would leave the FMA units idle most of the time) and reduce across lanes once, at
 * the end, in a fixed order ({@link #sumLanes}).
 *
 * <p>Internal: this package is meant to be exported only to rankgrad's own modules.
 */
public final class VectorSupport {
    /** The float species every vector kernel uses. */
    public static final VectorSpecies<Float> FLOAT = chooseSpecies();

    /** The double species of the same vector shape (half as many lanes). */
    public static final VectorSpecies<Double> DOUBLE = VectorSpecies.of(double.class, FLOAT.vectorShape());

    /** Float lanes per vector. */
    public static final int LANES = FLOAT.length();

    /** Fewer float lanes than this and the vector kernels are not worth loading. */
    public static final int MIN_LANES = 4;

    private VectorSupport() {
    }

    /**
     * Refuses vectors too narrow to pay off: the constructor of every vector kernel family calls
     * this, so that {@link KernelSelection} falls back to the scalar kernels with this message.
     *
     * @throws UnsupportedOperationException when a float vector has fewer than {@link #MIN_LANES} lanes
     */
    public static void requireEnoughLanes() {
        if (LANES < MIN_LANES) {
            throw new UnsupportedOperationException("float vectors here have " + LANES + " lanes ("
                    + FLOAT.vectorBitSize() + "-bit); at least " + MIN_LANES + " are needed for SIMD kernels to pay off");
        }
    }

    /** True when a loop over {@code n} elements should take the vector path. */
    public static boolean worthVectorizing(int n) {
        return n > 2 * LANES;
    }

    /** The largest multiple of the vector length that is at most {@code n}. */
    public static int loopBound(int n) {
        return FLOAT.loopBound(n);
    }

    /**
     * The sum of the lanes, added from lane 0 upwards. {@code reduceLanes(ADD)} leaves the order
     * unspecified, and the compiled and interpreted versions do differ in the last bit.
     */
    public static float sumLanes(FloatVector v) {
        float[] lanes = new float[LANES];
        v.intoArray(lanes, 0);
        float s = 0f;
        for (float x : lanes) {
            s += x;
        }
        return s;
    }

    private static VectorSpecies<Float> chooseSpecies() {
        String bits = System.getProperty("rankgrad.vector.bits");
        if (bits == null || bits.isBlank()) {
            return FloatVector.SPECIES_PREFERRED;
        }
        int b;
        try {
            b = Integer.parseInt(bits.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-Drankgrad.vector.bits=" + bits + ": use 64, 128, 256 or 512", e);
        }
        if (b != 64 && b != 128 && b != 256 && b != 512) {
            throw new IllegalArgumentException("-Drankgrad.vector.bits=" + bits + ": use 64, 128, 256 or 512");
        }
        if (b > FloatVector.SPECIES_PREFERRED.vectorBitSize()) {
            throw new IllegalArgumentException("-Drankgrad.vector.bits=" + b + " is wider than this CPU's "
                    + FloatVector.SPECIES_PREFERRED.vectorBitSize() + "-bit vectors");
        }
        return VectorSpecies.of(float.class, VectorShape.forBitSize(b));
    }
}
