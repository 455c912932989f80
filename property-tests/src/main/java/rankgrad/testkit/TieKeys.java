package rankgrad.testkit;

/**
 * How a rank operator breaks ties, for {@link RankLaws#assertSortRanks}: per query, the tie keys
 * that {@link rankgrad.ltr.Ranking#order(double[], int, int, int[])} takes, a permutation of 0..m-1
 * where the smaller key ranks first among tied documents.
 *
 * <pre>{@code
 * TieKeys.INPUT_ORDER                                          // stable: earlier document first
 * (query, m) -> TieBreak.keys(seed, 0, query, m)               // the twin-sigmoid's first call
 * }</pre>
 */
@FunctionalInterface
public interface TieKeys {

    /** Ties in input order: the document that comes first in the batch ranks first. */
    TieKeys INPUT_ORDER = (query, m) -> null;

    /** The tie keys of query {@code query} of {@code m} documents, or null for input order. */
    int[] of(int query, int m);
}
