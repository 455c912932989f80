package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that would exhaust memory end while they are read, at the line that crosses the limit,
 * with one line saying how to raise it, instead of an OutOfMemoryError minutes later.
 */
class ReadingLimitsTest {
    @TempDir
    Path dir;

    private Path lines(String name, int queries, int docsPerQuery) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int q = 1; q <= queries; q++) {
            for (int d = 0; d < docsPerQuery; d++) {
                b.append(d % 3).append(" qid:").append(q).append(" 1:0.5 2:0.25\n");
            }
        }
        return Files.writeString(dir.resolve(name), b);
    }

    @Test
    void aQueryOverTheLimitIsRefusedAtTheLineThatCrossesIt() throws IOException {
        Path file = lines("big.txt", 1, 12);
        LetorOptions tenPerQuery = LetorOptions.DEFAULT.withMaxQueryDocuments(10);
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(file, 0, tenPerQuery));
        assertEquals(11, e.line());
        assertEquals(file + ":11: query 1 has more than 10 documents, the limit per query; split the query, or raise the"
                + " limit with -Drankgrad.maxQueryDocuments=N (RANKGRAD_JAVA_OPTS=-Drankgrad.maxQueryDocuments=N ./rankgrad"
                + " ...) and the heap with it", e.getMessage());
        assertEquals(10, LetorReader.read(lines("ok.txt", 3, 10), 0, tenPerQuery).queries().get(2).docs());
        LetorFormatException streamed = assertThrows(LetorFormatException.class, () -> LetorReader.stream(file, 2,
                tenPerQuery, q -> { }));
        assertEquals(11, streamed.line());
    }

    @Test
    void theDefaultLimitIsAMillionDocumentsPerQuery() {
        assertEquals(1_000_000, LetorOptions.DEFAULT.maxQueryDocuments());
        assertEquals(1_000_000, new LetorOptions(null, 4).maxQueryDocuments());
    }

    @Test
    void dataThatWouldNotFitTheHeapAreRefusedWhileReading() throws IOException {
        // 3000 one-document queries: 512 bytes of objects each is estimated, so 1.5 MB at the 3000th;
        // a heap of 1 MB is crossed at the check after document 2048 (checks run every 1024 documents).
        Path file = lines("many.txt", 3000, 1);
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(file, 0,
                LetorOptions.DEFAULT, 1_000_000));
        assertEquals(2048, e.line());
        assertTrue(e.getMessage().contains("2048 documents read so far (4096 feature values) need about 1 MB of memory,"
                + " more than this JVM's heap of at most 1 MB; raise the heap (RANKGRAD_JAVA_OPTS=-Xmx<size>"), e.getMessage());
        assertEquals(3000, LetorReader.read(file, 0, LetorOptions.DEFAULT, 1L << 30).size());
    }
}
