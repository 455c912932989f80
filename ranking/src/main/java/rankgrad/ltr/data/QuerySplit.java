package rankgrad.ltr.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Splits one dataset by query, never a query's documents apart, with a seeded shuffle: the same
 * data and seed give the same split on every machine ({@link Random}'s sequence is specified).
 * Each part keeps its queries in file order. RankLib's {@code -tvs} and {@code -kcv} do the same.
 */
public final class QuerySplit {
    /**
     * A training part and a held-out part.
     *
     * @param train the queries trained on
     * @param valid the held-out queries
     */
    public record HoldOut(Dataset train, Dataset valid) {
    }

    /**
     * One cross-validation fold as the LETOR layout has it: the test part, the next part (cyclically)
     * for validation, the others for training.
     *
     * @param train the queries trained on
     * @param valid the queries the epoch is selected on
     * @param test the queries reported, never used for training or selection
     */
    public record Fold(Dataset train, Dataset valid, Dataset test) {
    }

    private QuerySplit() {
    }

    /**
     * Holds out round(fraction * queries) queries (at least one, and at least one left to train
     * on) chosen by a shuffle seeded with {@code seed}.
     */
    public static HoldOut holdOut(Dataset data, double fraction, long seed) {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("the held-out fraction must be in (0, 1), got " + fraction);
        }
        if (data.size() < 2) {
            throw new IllegalArgumentException(data.name() + " has " + data.size() + " queries; a split needs at least 2");
        }
        int held = (int) Math.max(1, Math.min(data.size() - 1, Math.round(fraction * data.size())));
        int[] order = shuffled(data.size(), seed);
        boolean[] inValid = new boolean[data.size()];
        for (int i = 0; i < held; i++) {
            inValid[order[i]] = true;
        }
        String what = String.format(Locale.ROOT, "split %s by query, seed %d", fraction, seed);
        return new HoldOut(select(data, inValid, false, data.name() + " (training part, " + what + ")"),
                select(data, inValid, true, data.name() + " (validation part, " + what + ")"));
    }

    /**
     * {@code k} parts of the queries, chosen by a shuffle seeded with {@code seed}: part i gets the
     * shuffled queries i, i + k, i + 2k, ..., so sizes differ by at most one.
     */
    public static List<Dataset> parts(Dataset data, int k, long seed) {
        if (k < 2) {
            throw new IllegalArgumentException("cross-validation needs at least 2 folds, got " + k);
        }
        if (data.size() < k) {
            throw new IllegalArgumentException(data.name() + " has " + data.size() + " queries, fewer than " + k + " folds");
        }
        int[] order = shuffled(data.size(), seed);
        int[] partOf = new int[data.size()];
        for (int i = 0; i < order.length; i++) {
            partOf[order[i]] = i % k;
        }
        List<Dataset> parts = new ArrayList<>();
        for (int p = 0; p < k; p++) {
            List<Query> qs = new ArrayList<>();
            for (int q = 0; q < data.size(); q++) {
                if (partOf[q] == p) {
                    qs.add(data.queries().get(q));
                }
            }
            parts.add(new Dataset(String.format(Locale.ROOT, "%s (part %d of %d by query, seed %d)", data.name(), p + 1, k,
                    seed), data.features(), qs));
        }
        return parts;
    }

    /**
     * Fold {@code i} (0-based) of {@link #parts}: test part i, validation part i + 1 (mod k), the
     * other k - 2 parts for training, in part order. Needs k &gt;= 3.
     */
    public static Fold fold(List<Dataset> parts, int i) {
        int k = parts.size();
        if (k < 3) {
            throw new IllegalArgumentException("a fold with its own validation part needs at least 3 parts, got " + k);
        }
        List<Dataset> rest = new ArrayList<>();
        for (int p = 0; p < k; p++) {
            if (p != i && p != (i + 1) % k) {
                rest.add(parts.get(p));
            }
        }
        return new Fold(join(rest, "training parts of fold " + (i + 1)), parts.get((i + 1) % k), parts.get(i));
    }

    /** The queries of {@code parts}, part after part (all of one width). */
    public static Dataset join(List<Dataset> parts, String name) {
        List<Query> qs = new ArrayList<>();
        for (Dataset d : parts) {
            qs.addAll(d.queries());
        }
        return new Dataset(name, parts.get(0).features(), qs);
    }

    private static Dataset select(Dataset data, boolean[] chosen, boolean want, String name) {
        List<Query> qs = new ArrayList<>();
        for (int q = 0; q < data.size(); q++) {
            if (chosen[q] == want) {
                qs.add(data.queries().get(q));
            }
        }
        return new Dataset(name, data.features(), qs);
    }

    /** A Fisher-Yates shuffle of 0..n-1 driven by {@code new Random(seed)}. */
    private static int[] shuffled(int n, long seed) {
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        Random random = new Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }
}
