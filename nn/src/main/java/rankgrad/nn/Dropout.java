package rankgrad.nn;

import java.util.Map;
import java.util.SplittableRandom;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;

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
     * double of a {@link SplittableRandom} seeded with a mix of both is &gt;= rate.
     */
    public static boolean[] mask(long seed, long step, int n, double rate) {
        SplittableRandom rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + step * 0xBF58476D1CE4E5B9L + 0x632BE59BD9B4E019L);
        boolean[] keep = new boolean[n];
        for (int i = 0; i < n; i++) {
            keep[i] = rng.nextDouble() >= rate;
        }
        return keep;
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
