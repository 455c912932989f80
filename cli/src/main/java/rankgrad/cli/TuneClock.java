package rankgrad.cli;

import java.util.List;
import java.util.Map;

/**
 * The wall clock of {@code tune --budget TIME}: the budget in seconds and the measured rate that
 * converts what is left of it into document passes ({@link TuneBudget}).
 *
 * <p>Before the first rung, a measuring run trains the first recipe (the defaults) for {@link
 * #probeEpochs} epochs ({@link Rate}): its epochs after the first give the passes per second,
 * and the time reading the training file took the fixed seconds of every trial; together they
 * size the first rung. After each rung the rate is measured again
 * on everything trained so far (epochs actually run: early stopping ends trials before their
 * planned epochs) and the next rung keeps eta times the epochs only if the remaining rungs fit in
 * the time left at that rate; otherwise it gets the most epochs that fit (at least 1). So a slow
 * network or a loaded machine shortens the later rungs instead of overrunning the budget, while
 * the choice depends on the timings: {@code tune} prints the plan it ran ({@link TunePlan}) and keeps
 * it, so that {@code --plan} or the same command on the same machine repeats the choice exactly.
 */
final class TuneClock {
    /** Share of the budget (at the prior rate) that the measuring run aims at. */
    static final double PROBE_SHARE = 0.01;
    /** Fewest epochs of the measuring run (the first carries the warm-up). */
    static final int MIN_PROBE_EPOCHS = 2;
    /**
     * Most epochs of the measuring run: on a loaded 2-core machine 20 epochs of LightGBM's small
     * example set took 107 s of a 5-minute budget.
     */
    static final int MAX_PROBE_EPOCHS = 5;

    private final double seconds;
    private final long start = System.nanoTime();

    TuneClock(double seconds) {
        this.seconds = seconds;
    }

    double budgetSeconds() {
        return seconds;
    }

    double elapsed() {
        return (System.nanoTime() - start) / 1e9;
    }

    double left() {
        return Math.max(0, seconds - elapsed());
    }

    /**
     * Epochs of the measuring run: PROBE_SHARE of the budget at the prior rate, clamped to
     * [MIN_PROBE_EPOCHS, MAX_PROBE_EPOCHS].
     */
    static int probeEpochs(double seconds, long documents) {
        double epochs = PROBE_SHARE * seconds * TuneBudget.PRIOR_PASSES_PER_SECOND / Math.max(1, documents);
        return (int) Math.max(MIN_PROBE_EPOCHS, Math.min(MAX_PROBE_EPOCHS, Math.floor(epochs)));
    }

    /**
     * What the measuring run showed: document passes per second of a warm epoch, and the seconds
     * every run pays besides its epochs (reading its data, writing its model and curves).
     */
    record Rate(double passesPerSecond, double trialSeconds) {
        /**
         * From the measuring run's wall seconds and its runs' epoch times (one map per run: one, or
         * one per fold; epoch to the seconds of its training and validation), {@code epochPasses}
         * document passes per epoch: a warm epoch is the fastest after the run's first (which
         * carries the JVM's warm-up: 4.1 s where the later ones took 1.1-1.2 s on the demo's data),
         * and what the wall time holds besides the epochs, divided over the runs, is every run's
         * fixed cost. Averaging the epochs after the first instead counted the warm-up of the
         * second and third and every run's fixed costs as epoch time, which made the rate 28%
         * too low and the first rung too short.
         */
        static Rate measure(double wallSeconds, List<Map<Integer, Double>> runs, long epochPasses) {
            double epochs = 0;
            double fastest = Double.POSITIVE_INFINITY;
            for (int r = 0; r < runs.size(); r++) {
                for (Map.Entry<Integer, Double> e : runs.get(r).entrySet()) {
                    epochs += e.getValue();
                    if (r > 0 || e.getKey() > 1) {
                        fastest = Math.min(fastest, e.getValue());
                    }
                }
            }
            if (!Double.isFinite(fastest)) {
                throw new IllegalStateException("the measuring run recorded no time after its first epoch");
            }
            return new Rate(epochPasses / fastest, Math.max(0, wallSeconds - epochs) / runs.size());
        }

        /** Document passes that fit in {@code seconds} with {@code trials} trials' fixed costs paid out of them (>= 0). */
        long passesIn(double seconds, long trials) {
            return (long) (Math.max(0, seconds - trials * trialSeconds) * passesPerSecond);
        }
    }

    /**
     * Epochs of the next rung: the most that fit in {@code left} seconds at {@code passesPerSecond}
     * when the remaining rungs cost {@code costUnits} of its epochs over {@code documents} documents
     * (at least 1).
     */
    static int nextRungEpochs(long documents, long costUnits, double passesPerSecond, double left) {
        return new TuneBudget((long) (passesPerSecond * left)).firstRungEpochs(documents, costUnits);
    }
}
