package rankgrad.ltr;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * Exact ranking of one query's scores: documents ordered by score, highest first, with ties
 * broken by a tie-key permutation. Every metric, the twin-sigmoid forward pass and LambdaRank's
 * positions use this one definition, so they agree on every input.
 *
 * <p>Ties: two scores tie when they are equal under IEEE {@code ==}, so -0.0 and +0.0 tie (DESIGN
 * section 3.2). Among tied documents the one with the smaller tie key comes first. The identity
 * keys {@code 0..m-1} give stable ties (input order); a random permutation gives the random
 * tie-breaking of the twin-sigmoid operator (Yu Sec. 3.2), where document i is placed above a tied
 * document j iff p_i > p_j, i.e. key = m - 1 - p.
 *
 * <p>Cost: O(m log m) on primitive keys for float scores (score and tie key packed in one long).
 * NaN and infinite scores are rejected.
 */
public final class Ranking {
    private Ranking() {
    }

    /**
     * Local indices {@code 0..m-1} of {@code scores[from .. from+m)} in ranked order (best first).
     *
     * @param tieKey a permutation of 0..m-1 (smaller first among ties), or null for input order
     */
    public static int[] order(float[] scores, int from, int m, int[] tieKey) {
        int[] keys = tieKey == null ? identity(m) : checkPermutation(tieKey, m);
        int[] docOfKey = new int[m];
        long[] packed = new long[m];
        for (int i = 0; i < m; i++) {
            float s = scores[from + i];
            if (!Float.isFinite(s)) {
                throw new IllegalArgumentException("score " + s + " at document " + i + " is not finite");
            }
            // +0.0f folds -0.0 into +0.0; the xor makes the int order follow the float order.
            int bits = Float.floatToRawIntBits(s + 0.0f);
            int monotone = bits ^ ((bits >> 31) & 0x7fffffff);
            packed[i] = ((long) ~monotone << 32) | (keys[i] & 0xffffffffL);
            docOfKey[keys[i]] = i;
        }
        Arrays.sort(packed);
        int[] order = new int[m];
        for (int r = 0; r < m; r++) {
            order[r] = docOfKey[(int) packed[r]];
        }
        return order;
    }

    /** {@link #order(float[], int, int, int[])} for float64 scores. */
    public static int[] order(double[] scores, int from, int m, int[] tieKey) {
        int[] keys = tieKey == null ? identity(m) : checkPermutation(tieKey, m);
        Integer[] idx = new Integer[m];
        for (int i = 0; i < m; i++) {
            double s = scores[from + i];
            if (!Double.isFinite(s)) {
                throw new IllegalArgumentException("score " + s + " at document " + i + " is not finite");
            }
            idx[i] = i;
        }
        // Comparing with < and > (not Double.compare) makes -0.0 and +0.0 a tie.
        Arrays.sort(idx, (a, b) -> {
            double sa = scores[from + a];
            double sb = scores[from + b];
            return sa > sb ? -1 : sa < sb ? 1 : Integer.compare(keys[a], keys[b]);
        });
        int[] order = new int[m];
        for (int r = 0; r < m; r++) {
            order[r] = idx[r];
        }
        return order;
    }

    /** 1-based ranks from an order: {@code rank[order[r]] = r + 1}. */
    public static int[] ranks(int[] order) {
        int[] rank = new int[order.length];
        for (int r = 0; r < order.length; r++) {
            rank[order[r]] = r + 1;
        }
        return rank;
    }

    /** A uniformly random permutation of 0..m-1 (Fisher-Yates) to use as tie keys. */
    public static int[] randomTieKeys(int m, RandomGenerator rng) {
        int[] p = identity(m);
        for (int i = m - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static int[] identity(int m) {
        int[] p = new int[m];
        for (int i = 0; i < m; i++) {
            p[i] = i;
        }
        return p;
    }

    private static int[] checkPermutation(int[] keys, int m) {
        if (keys.length != m) {
            throw new IllegalArgumentException("tie keys have length " + keys.length + ", expected " + m);
        }
        boolean[] seen = new boolean[m];
        for (int k : keys) {
            if (k < 0 || k >= m || seen[k]) {
                throw new IllegalArgumentException("tie keys must be a permutation of 0.." + (m - 1));
            }
            seen[k] = true;
        }
        return keys;
    }
}
