package rankgrad.cli;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Parses fold selections: {@code 1..5} (inclusive range), {@code 1,3} (list), {@code 2}, or a mix
 * such as {@code 1..3,5}. Folds are numbered from 1 as in the MSLR / LETOR layout.
 */
final class FoldRange {
    private FoldRange() {
    }

    /** The fold numbers in the order written; throws on an empty, reversed, repeated or non-positive fold. */
    static int[] parse(String text) {
        Set<Integer> folds = new LinkedHashSet<>();
        for (String token : text.split(",", -1)) {
            String t = token.strip();
            int dots = t.indexOf("..");
            int from = number(dots < 0 ? t : t.substring(0, dots), text);
            int to = dots < 0 ? from : number(t.substring(dots + 2), text);
            if (to < from) {
                throw new IllegalArgumentException("reversed range '" + t + "' in '" + text + "'; write " + to + ".." + from);
            }
            for (int k = from; k <= to; k++) {
                if (!folds.add(k)) {
                    throw new IllegalArgumentException("fold " + k + " is named twice in '" + text + "'");
                }
            }
        }
        return folds.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int number(String s, String text) {
        String t = s.strip();
        if (t.isEmpty() || !t.chars().allMatch(Character::isDigit) || t.length() > 6) {
            throw new IllegalArgumentException("'" + text + "' is not a fold list; write e.g. 1..5, 1,3 or 2");
        }
        int k = Integer.parseInt(t);
        if (k < 1) {
            throw new IllegalArgumentException("folds are numbered from 1, got " + k + " in '" + text + "'");
        }
        return k;
    }
}
