package rankgrad.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code tune}'s budget, counted in training document passes (one document's forward and backward
 * pass in one epoch; an epoch over the training set costs its document count, an ensemble member
 * as much again), never in seconds, so that a seed and a budget choose the same winner on any
 * machine under any load.
 *
 * <p>A time budget ({@code 90s}, {@code 5m}, {@code 1h}) is converted at a fixed rate of
 * {@value #PASSES_PER_SECOND} document passes per second: the demo's R4.L trains about that fast
 * on 2 cores of an AMD EPYC with JDK 25 (12 epochs of 200,000 documents in 8 s), so the time form
 * is approximate (linear models run faster, attn slower), while {@code --budget-passes} is exact.
 */
record TuneBudget(long passes) {
    /** The fixed conversion of a time budget. */
    static final long PASSES_PER_SECOND = 300_000;

    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)([smh])");

    /** "5m", "90s", "1.5h". */
    static TuneBudget ofTime(String text) {
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
        return new TuneBudget((long) (seconds * PASSES_PER_SECOND));
    }

    /**
     * Epochs of the first rung of successive halving with {@code candidates} recipes and {@code
     * eta} (the budget's cost in rung-0 epochs is {@code costUnits}): floor(passes / (costUnits x
     * documents)), at least 1.
     */
    int firstRungEpochs(long documents, long costUnits) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, passes / (costUnits * Math.max(1, documents))));
    }
}
