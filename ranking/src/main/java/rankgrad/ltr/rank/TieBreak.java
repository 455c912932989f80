package rankgrad.ltr.rank;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import rankgrad.ltr.Ranking;

/**
 * The one source of random tie-breaks of the rank operators and losses: the seeded tie-breaking of
 * the twin-sigmoid ranks (Yu et al. 2020, Sec. 4.2), for each query of each forward call a random
 * permutation p of 0..m-1 (of two documents with equal scores, i is ranked above j iff p_i &gt;
 * p_j), which LambdaRank's positions use too; ListMLE's and the annealed SHF-SDCG's label ties
 * draw from the same per-query {@link #generator}. Every seeded loss holds one instance.
 *
 * <p>The permutation of query q in call c depends only on (seed, c, q), drawn from its own
 * {@link SplittableRandom}: never on threads or on the other queries of the batch. Each {@link
 * #nextCall()} advances a counter, so successive training steps break ties afresh, reproducibly.
 * q is the query's position in the whole batch of a training step: a tie-breaker made for a shard
 * of that batch ({@link #seeded(long, long, int)}) numbers its queries from the shard's first
 * query, so splitting a batch into shards draws exactly what the whole batch draws.
 *
 * <p>Thread-safety: the counter is atomic; the static functions are pure.
 */
public final class TieBreak {
    private final long seed;
    private final AtomicLong calls;
    private final int firstQuery;

    private TieBreak(long seed, long firstCall, int firstQuery) {
        if (firstQuery < 0) {
            throw new IllegalArgumentException("the first query of a shard must be >= 0, got " + firstQuery);
        }
        this.seed = seed;
        this.calls = new AtomicLong(firstCall);
        this.firstQuery = firstQuery;
    }

    /** A tie-breaker whose first call is call 0. */
    public static TieBreak seeded(long seed) {
        return new TieBreak(seed, 0, 0);
    }

    /** A tie-breaker whose first call is {@code firstCall} (a training step, for exact resume). */
    public static TieBreak seeded(long seed, long firstCall) {
        return new TieBreak(seed, firstCall, 0);
    }

    /**
     * A tie-breaker for a shard of a batch: its first call is {@code firstCall}, and its query q is
     * query {@code firstQuery + q} of the whole batch (see the class comment).
     */
    public static TieBreak seeded(long seed, long firstCall, int firstQuery) {
        return new TieBreak(seed, firstCall, firstQuery);
    }

    public long seed() {
        return seed;
    }

    /** The position in the whole batch of this tie-breaker's query 0 (0 unless made for a shard). */
    public int firstQuery() {
        return firstQuery;
    }

    /** The number of the next forward call, then advances the counter. */
    public long nextCall() {
        return calls.getAndIncrement();
    }

    /**
     * The generator of query {@code query} in call {@code call}: every random choice of a loss for
     * that query (tie permutations here, label ties of ListMLE) is drawn from it.
     */
    public static SplittableRandom generator(long seed, long call, int query) {
        return new SplittableRandom(mix(seed, call, query));
    }

    /** Yu's permutation p of query {@code query} (m documents) in call {@code call}. */
    public static int[] permutation(long seed, long call, int query, int m) {
        return Ranking.randomTieKeys(m, generator(seed, call, query));
    }

    /** {@link #keys(long, long, int, int)} of the permutation drawn first from {@code rng}. */
    public static int[] keys(SplittableRandom rng, int m) {
        int[] p = Ranking.randomTieKeys(m, rng);
        for (int i = 0; i < m; i++) {
            p[i] = m - 1 - p[i];
        }
        return p;
    }

    /**
     * The {@link Ranking} tie keys of that permutation (smaller key first): key_i = m - 1 - p_i,
     * so that among tied documents the larger p_i comes first.
     */
    public static int[] keys(long seed, long call, int query, int m) {
        return keys(generator(seed, call, query), m);
    }

    /** The tie keys of every query of a batch, laid out flat like its scores. */
    public static int[] batchKeys(long seed, long call, int[] offsets) {
        return batchKeys(seed, call, 0, offsets);
    }

    /**
     * The tie keys of every query of a shard of a batch whose query 0 is query {@code firstQuery}
     * of the whole batch, laid out flat like its scores.
     */
    public static int[] batchKeys(long seed, long call, int firstQuery, int[] offsets) {
        int[] keys = new int[offsets[offsets.length - 1]];
        for (int q = 0; q + 1 < offsets.length; q++) {
            int m = offsets[q + 1] - offsets[q];
            System.arraycopy(keys(seed, call, firstQuery + q, m), 0, keys, offsets[q], m);
        }
        return keys;
    }

    /** A 64-bit seed from (seed, call, query) whose bits all depend on all three (SplitMix64 finalizer). */
    private static long mix(long seed, long call, int query) {
        long h = mix64(seed ^ 0x9E3779B97F4A7C15L);
        h = mix64(h ^ (call * 0xC2B2AE3D27D4EB4FL));
        return mix64(h ^ (query * 0x165667B19E3779F9L + 0x27D4EB2F165667C5L));
    }

    private static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
