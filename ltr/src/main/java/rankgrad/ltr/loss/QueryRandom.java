package rankgrad.ltr.loss;

import java.util.SplittableRandom;

/** Per-query generators derived from (seed, call, query) alone, so no draw depends on threads. */
final class QueryRandom {
    private QueryRandom() {
    }

    /** A generator for query {@code q} of the {@code call}-th evaluation of a loss seeded with {@code seed}. */
    static SplittableRandom of(long seed, long call, int q) {
        return new SplittableRandom(mix64(mix64(seed + 0x9E3779B97F4A7C15L * (call + 1)) + q));
    }

    /** The SplitMix64 finalizer: neighbouring inputs give unrelated outputs. */
    private static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
