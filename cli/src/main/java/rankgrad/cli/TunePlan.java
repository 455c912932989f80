package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What {@code tune} trains: how many recipes rung 0 starts with and the epochs of each rung of
 * successive halving. A time budget decides it from measured rates (and may shorten a rung while
 * it runs); the plan it ran is printed and kept ({@link TunePlans}), and {@code --plan} or the same
 * command on the same machine trains exactly it again, so the winner does not depend on timings.
 *
 * <p>Text form {@code R:E0,E1,...}, e.g. {@code 9:5,15,45}: 9 recipes trained for 5 epochs, the
 * best 3 for 15, the best one for 45 (as an ensemble); {@code tune} checks that the plan has one
 * count per rung of its search.
 */
record TunePlan(int recipes, List<Integer> epochs) {
    private static final Pattern TEXT = Pattern.compile("\\d{1,6}:\\d{1,6}(,\\d{1,6})*");

    TunePlan {
        epochs = List.copyOf(epochs);
        if (recipes < TuneCommand.ETA || epochs.stream().anyMatch(e -> e < 1)) {
            throw new IllegalArgumentException("a plan has at least " + TuneCommand.ETA + " recipes and rungs of at"
                    + " least 1 epoch, got " + recipes + " recipes and " + epochs);
        }
    }

    /** Parses {@code R:E0,E1,...}. */
    static TunePlan parse(String text) {
        if (!TEXT.matcher(text.trim()).matches()) {
            throw new IllegalArgumentException("--plan takes RECIPES:EPOCHS,EPOCHS,... (one count of epochs per rung),"
                    + " such as 9:5,15, got '" + text + "'");
        }
        String[] parts = text.trim().split(":");
        List<Integer> epochs = new ArrayList<>();
        for (String e : parts[1].split(",")) {
            epochs.add(Integer.parseInt(e));
        }
        return new TunePlan(Integer.parseInt(parts[0]), epochs);
    }

    /** The text form, {@code R:E0,E1,...}. */
    String text() {
        return recipes + ":" + epochs.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
