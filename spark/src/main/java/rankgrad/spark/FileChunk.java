package rankgrad.spark;

import java.io.Serializable;

/**
 * A byte range [{@code start}, {@code end}) of one input file: the unit of the first, cheap pass
 * over the data ({@link ChunkScan}). A gzip file is one chunk (its bytes cannot be entered in the
 * middle).
 *
 * @param file the file's index in the listing (the order of the paths as given)
 * @param name the file as messages name it
 * @param uri the file's full Hadoop path
 * @param length the file's length in bytes
 * @param gzip whether the file is gzip-compressed (by its magic bytes)
 */
record FileChunk(int file, String name, String uri, long start, long end, long length, boolean gzip)
        implements Serializable {
}
