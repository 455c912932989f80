package rankgrad.solr;

import com.carrotsearch.randomizedtesting.ThreadFilter;

/**
 * Solr's test framework fails a suite that leaves threads behind; rankgrad's thread team
 * ({@code rankgrad.simd.Parallel}: daemon workers named {@code rankgrad-N}, started once and kept
 * for the life of the JVM, as a Solr node keeps them) is meant to outlive any one query or test.
 */
public final class RankgradThreadsFilter implements ThreadFilter {
    @Override
    public boolean reject(Thread t) {
        return t.getName().startsWith("rankgrad-");
    }
}
