package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FeatureSubsetTest {
    @TempDir
    Path dir;

    @Test
    void listsAndRangesAreReadAsRankLibWritesThem() {
        FeatureSubset s = FeatureSubset.parse("15, 1-3,7");
        assertArrayEquals(new int[] {1, 2, 3, 7, 15}, s.ids());
        assertEquals(5, s.size());
        assertEquals(15, s.width());
        assertEquals("1-3,7,15", s.toString());
        assertEquals(s, FeatureSubset.parse(s.toString()));
        assertFalse(s.isAll());
        assertFalse(FeatureSubset.parse("1-4").isAll(), "a chosen prefix still reads the first columns of wider rows");
        assertTrue(FeatureSubset.all(4).isAll());
    }

    @Test
    void aFeatureFileHasOneIdPerLineAndHashComments() throws Exception {
        Path file = dir.resolve("features.txt");
        Files.writeString(file, "# chosen by hand\n3\n\n1   # bm25\n10-12\n");
        assertArrayEquals(new int[] {1, 3, 10, 11, 12}, FeatureSubset.read(file).ids());
        Files.writeString(file, "3\nx7\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FeatureSubset.read(file));
        assertTrue(e.getMessage().startsWith(file + " line 2"), e.getMessage());
        Files.writeString(file, "# nothing\n");
        assertThrows(IllegalArgumentException.class, () -> FeatureSubset.read(file));
    }

    @Test
    void badListsAreRefusedWithTheReason() {
        assertTrue(message("0,3").contains("start at 1"));
        assertTrue(message("5-2").contains("reversed range '5-2'"));
        assertTrue(message("1-3,2").contains("feature 2 is named twice"));
        assertTrue(message("1,,2").contains("is not a feature id"));
        assertTrue(message("a").contains("is not a feature id"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> FeatureSubset.parse(text)).getMessage();
    }

    @Test
    void applyingPicksTheColumnsInIdOrder() {
        // two documents of four features: value 10 * doc + feature id
        Query q = new Query("q", 4, new float[] {1, 2, 3, 4, 11, 12, 13, 14}, new float[] {0, 1});
        Query s = FeatureSubset.parse("4,2").apply(q);
        assertEquals(2, s.features());
        assertArrayEquals(new float[] {2, 4, 12, 14}, s.x());
        assertArrayEquals(q.labels(), s.labels());
        assertThrows(IllegalArgumentException.class, () -> FeatureSubset.parse("5").apply(q));
        assertEquals(q, FeatureSubset.all(4).apply(q), "every column is the query itself");
    }
}
