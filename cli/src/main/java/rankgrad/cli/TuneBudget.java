package rankgrad.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tune}'s budget, counted in training document passes (one document's forward and backward
 * pass in one epoch; an epoch over the training set costs its document count, an ensemble member
 * as much again), so that a seed and {@code --budget-passes} choose the same winner on any machine
 * under any load.
 *
 * <p>A time budget ({@code 90s}, {@code 5m}, {@code 1h}) is converted at a rate measured on the
 * machine and data at hand ({@link TuneClock}); {@value #PRIOR_PASSES_PER_SECOND} passes per second,
 * the demo's R4.L on 2 quiet cores of an AMD EPYC with JDK 25, only sizes the measuring run. A
 * fixed rate was about 6 times too optimistic on a loaded machine, and on LightGBM's 2,387-document
 * example set, where an epoch's fixed costs (validation, checkpoint) dominate, it planned 1,047
 * epochs per first-rung trial.
 */
record TuneBudget(long passes) {
    /** The rate assumed before anything was measured: it sizes the measuring run only. */
    static final long PRIOR_PASSES_PER_SECOND = 300_000;

    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)([smh])");

    /** "5m", "90s", "1.5h" in seconds. */
    static double seconds(String text) {
        Matcher m = TIME.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("--budget takes a time such as 90s, 5m or 1h, got '" + text + "'");
        }
        double seconds = Double.parseDouble(m.group(1)) * switch (m.group(2)) {
            case "s" -> 1;
            case "m" -> 60;
            default -> 3600;
        };
        if (!(seconds >= 1)) {
            throw new IllegalArgumentException("--budget must be at least 1s, got '" + text + "'");
        }
        return seconds;
    }

    /**
     * Epochs of one rung of successive halving whose remaining rungs cost {@code costUnits} of this
     * rung's epochs ({@link TuneCommand#costUnits}): floor(passes / (costUnits x documents)), at
     * least 1.
     */
    int firstRungEpochs(long documents, long costUnits) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, passes / (costUnits * Math.max(1, documents))));
    }
}
