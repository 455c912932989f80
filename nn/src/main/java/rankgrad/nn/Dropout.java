package rankgrad.nn;

import java.util.Map;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;
import rankgrad.simd.Parallel;

/**
 * Dropout as a module without parameters: in training mode y = x m / (1 - p) with a fresh keep
 * mask m per step ({@link rankgrad.autodiff.Ops#dropout}), in evaluation mode the identity.
 *
 * <p>Determinism: the mask is not drawn from a shared random stream but from
 * {@link #mask(long, long, int, double)} of (seed, step), where the step is set by the trainer
 * ({@link #setStep}) before each training forward pass. The same seed and step give the same mask
 * for any thread count and after a resume from a checkpoint (the step is part of it).
 *
 * <pre>{@code
 * Dropout d = Dropout.create(0.1, seed);
 * d.setStep(step);               // once per optimizer step
 * Var h = d.forward(hidden);     // training mode: masked and scaled; eval mode: hidden itself
 * }</pre>
 */
public final class Dropout implements Layer {
    private final double rate;
    private final long seed;
    private long step;
    private boolean training = true;

    private Dropout(double rate, long seed) {
        this.rate = rate;
        this.seed = seed;
    }

    /**
     * Dropout of {@code rate} whose masks are drawn from {@code seed} and the step.
     *
     * @throws IllegalArgumentException for a rate outside [0, 1)
     */
    public static Dropout create(double rate, long seed) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("the dropout rate must be in [0, 1), got " + rate);
        }
        return new Dropout(rate, seed);
    }

    public double rate() {
        return rate;
    }

    /** Selects the mask of the next training forward passes (the optimizer step, 1-based). */
    public void setStep(long step) {
        this.step = step;
    }

    /**
     * The keep mask of {@code n} elements for (seed, step): element i is kept iff the i-th uniform
     * double of a {@link java.util.SplittableRandom} seeded with s = a mix of both is &gt;= rate.
     * That generator is SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): its i-th double (0-based)
     * is (mix(s + (i + 1) gamma) &gt;&gt;&gt; 11) 2^-53 with gamma = 0x9E3779B97F4A7C15 and mix
     * Stafford's variant 13, a function of i alone; the mask is drawn in parallel chunks from that
     * formula, with the generator's bits ({@code DropoutTest} checks them against it). Drawn one
     * after the other, the masks took a quarter of a training step's time at rate 0.1.
     */
    public static boolean[] mask(long seed, long step, int n, double rate) {
        long s = seed * 0x9E3779B97F4A7C15L + step * 0xBF58476D1CE4E5B9L + 0x632BE59BD9B4E019L;
        boolean[] keep = new boolean[n];
        int tasks = Parallel.tasksFor(n, MASK_GRAIN);
        Parallel.forEach(tasks, t -> {
            int end = (int) Math.min(n, (long) (t + 1) * MASK_GRAIN);
            for (int i = t * MASK_GRAIN; i < end; i++) {
                keep[i] = (mix(s + (i + 1L) * GAMMA) >>> 11) * 0x1.0p-53 >= rate;
            }
        });
        return keep;
    }

    /** SplitMix64's increment (the golden ratio's fraction in 64 bits), {@code SplittableRandom}'s default gamma. */
    private static final long GAMMA = 0x9E3779B97F4A7C15L;
    /** Mask elements per parallel task. */
    private static final int MASK_GRAIN = 1 << 15;

    /** Stafford's 64-bit mixer, variant 13 (SplitMix64's output function). */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public Var forward(Var x) {
        if (!training || rate == 0) {
            return x;
        }
        return Ops.dropout(x, mask(seed, step, x.value().size(), rate), rate);
    }

    @Override
    public Map<String, Var> namedParameters() {
        return Map.of();
    }

    @Override
    public void setTraining(boolean training) {
        this.training = training;
    }

    @Override
    public String toString() {
        return "Dropout(" + rate + ")";
    }
}
