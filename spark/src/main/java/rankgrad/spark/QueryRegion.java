package rankgrad.spark;

import java.io.Serializable;

/**
 * The bytes of one file that hold whole queries: from the first line of a query to the first line
 * of the next region's first query (or the end of the file). The second pass reads each region
 * with {@code LetorReader} in one task, so a query is never split, however small the chunks.
 *
 * @param index the region's place over all files (high bits of {@link QueryRow#getOrder()})
 * @param firstLine the 1-based line number of the region's first byte in the whole file
 * @param docIdsFromComments how the file names its documents, decided by its first document as
 *        {@code DocIds} does (null: decided in this region, which starts the file)
 */
record QueryRegion(int index, FileChunk chunk, long start, long end, long firstLine, Boolean docIdsFromComments)
        implements Serializable {
}
