package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LightGBM's and XGBoost's ranking layout: libsvm lines without {@code qid:}, the group sizes in
 * {@code FILE.query} or {@code FILE.group}. The fixtures under {@code grouped/} are a few lines
 * written by hand in that layout.
 */
class GroupedLibsvmTest {
    @TempDir
    Path dir;

    private static Path fixture(String name) throws Exception {
        return MalformedInputsTest.resource("grouped/" + name);
    }

    private Path copy(String fixture, String as) throws Exception {
        return Files.copy(fixture(fixture), dir.resolve(as));
    }

    @Test
    void lightGbmQueryFileBesideTheDataGivesTheQueries() throws Exception {
        Dataset d = LetorReader.read(fixture("rank.train"));
        assertEquals(2, d.size());
        assertEquals(300, d.features(), "the largest index of the file");
        Query first = d.queries().get(0);
        assertEquals("1", first.qid(), "groups are numbered from 1");
        assertArrayEquals(new float[] {2, 0, 1}, first.labels());
        assertEquals(0.69f, first.feature(0, 0));
        assertEquals(0.43f, first.feature(0, 299));
        assertEquals(0.9f, first.feature(1, 1));
        assertEquals(0.33f, first.feature(2, 1));
        Query second = d.queries().get(1);
        assertEquals("2", second.qid());
        assertArrayEquals(new float[] {0, 1}, second.labels());
        assertEquals(1f, second.feature(1, 3));
    }

    @Test
    void xgboostGroupFileBesideTheDataGivesTheQueries() throws Exception {
        Dataset d = LetorReader.read(fixture("xgb.txt"));
        assertEquals(List.of(2, 1, 3), d.queries().stream().map(Query::docs).toList());
        assertArrayEquals(new float[] {0.5f, 0}, d.queries().get(1).x());
        assertArrayEquals(new float[] {2, 1, 0}, d.queries().get(2).labels());
    }

    @Test
    void aGroupFileCanBeNamedExplicitly() throws Exception {
        Path data = copy("xgb.txt", "train.svm");
        Path sizes = copy("xgb.txt.group", "sizes.txt");
        Dataset d = LetorReader.read(data, 0, LetorOptions.DEFAULT.withGroups(sizes));
        assertEquals(List.of(2, 1, 3), d.queries().stream().map(Query::docs).toList());
        assertEquals(LetorReader.read(fixture("xgb.txt")).queries().get(2).x().length, d.queries().get(2).x().length);
    }

    @Test
    void gzipDataFindsTheGroupFileOfItsUncompressedName() throws Exception {
        Path gz = dir.resolve("rank.train.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(fixture("rank.train")));
        }
        copy("rank.train.query", "rank.train.query");
        assertEquals(List.of(3, 2), LetorReader.read(gz).queries().stream().map(Query::docs).toList());
    }

    @Test
    void streamingReadsGroupsToo() throws Exception {
        List<String> seen = new ArrayList<>();
        LetorReader.stream(fixture("rank.train"), 300, q -> seen.add(q.qid() + "/" + q.docs()));
        assertEquals(List.of("1/3", "2/2"), seen);
    }

    @Test
    void fewerDocumentsThanTheGroupsNeedIsOneLineNamingBothFilesAndCounts() throws Exception {
        Path data = fixture("short.txt");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data));
        assertEquals(data + ": 3 documents, but the group sizes in " + fixture("short.txt.query") + " add up to 4 (2 groups);"
                + " the two files must describe the same documents in the same order", e.getMessage());
    }

    @Test
    void moreDocumentsThanTheGroupsHoldIsOneLineNamingBothFilesAndCounts() throws Exception {
        Path data = fixture("long.txt");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data));
        assertEquals(data + ": 5 documents, but the group sizes in " + fixture("long.txt.query") + " add up to 4 (2 groups);"
                + " the two files must describe the same documents in the same order", e.getMessage());
    }

    @Test
    void badGroupSizesNameTheGroupFileAndLine() throws Exception {
        Path data = copy("xgb.txt", "x.txt");
        for (String bad : new String[] {"2\n0\n4\n", "2\nthree\n3\n", "2\n-1\n3\n", "2\n1.5\n3\n"}) {
            Path sizes = dir.resolve("x.txt.group");
            Files.writeString(sizes, bad);
            LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data), bad);
            assertTrue(e.getMessage().startsWith(sizes + ":2: group size '"), e.getMessage());
            assertTrue(e.getMessage().contains("is not an integer from 1 to 2147483647"), e.getMessage());
        }
        Path sizes = dir.resolve("x.txt.group");
        Files.writeString(sizes, "\n\n");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data));
        assertEquals(sizes + ": the group file has no group sizes", e.getMessage());
    }

    @Test
    void twoGroupFilesBesideTheDataAreAmbiguous() throws Exception {
        Path data = copy("xgb.txt", "x.txt");
        copy("xgb.txt.group", "x.txt.group");
        copy("xgb.txt.group", "x.txt.query");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data));
        assertEquals(data + ": its lines have no qid: and 2 group files sit beside it (x.txt.query, x.txt.group);"
                + " name the one to use", e.getMessage());
    }

    @Test
    void withoutQidAndWithoutGroupFileTheMessageSaysWhereGroupsGo() throws Exception {
        Path data = copy("xgb.txt", "alone.txt");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(data));
        assertEquals(data + ":1: expected qid:<id> as the second field, found '1:0.1'; a libsvm file without qid: needs its"
                + " group sizes (one per line) in alone.txt.query or alone.txt.group beside it (the LightGBM / XGBoost layout)",
                e.getMessage());
    }

    @Test
    void qidAndGroupsTogetherAreRefusedWhenNamedAndTheGroupFileIgnoredWhenBeside() throws Exception {
        Path data = dir.resolve("q.txt");
        Files.writeString(data, "1 qid:7 1:1\n0 qid:7 1:2\n", StandardCharsets.UTF_8);
        Path sizes = copy("xgb.txt.group", "q.txt.query");
        assertEquals("7", LetorReader.read(data).queries().get(0).qid(), "qid: fields win over a group file beside");
        LetorFormatException e = assertThrows(LetorFormatException.class,
                () -> LetorReader.read(data, 0, LetorOptions.DEFAULT.withGroups(sizes)));
        assertEquals(data + ":1: the lines have qid: fields, and group sizes were given in " + sizes + "; use one or the other",
                e.getMessage());
        Path mixed = copy("rank.train", "mixed.txt");
        Files.writeString(mixed, "1 qid:3 1:1\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        copy("rank.train.query", "mixed.txt.query");
        e = assertThrows(LetorFormatException.class, () -> LetorReader.read(mixed));
        assertTrue(e.getMessage().startsWith(mixed + ":6: a qid: field in a file whose queries come from the group sizes in "),
                e.getMessage());
    }

    @Test
    void aMissingNamedGroupFileIsNamed() throws Exception {
        Path data = copy("xgb.txt", "y.txt");
        Path none = dir.resolve("none.query");
        IOException e = assertThrows(IOException.class, () -> LetorReader.read(data, 0, LetorOptions.DEFAULT.withGroups(none)));
        assertTrue(e.getMessage().contains("none.query"), e.getMessage());
    }
}
