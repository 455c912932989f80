package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LetorReaderTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p;
    }

    @Test
    void readsSparseLinesCommentsAndBlankLines() throws IOException {
        Path p = file("a.txt", """
                # header comment
                2 qid:10 1:0.5 3:-1.25 # doc A

                0 qid:10 2:3e-1
                1 qid:7 3:2
                """);
        Dataset d = LetorReader.read(p);
        assertEquals(3, d.features());
        assertEquals(2, d.size());
        Query q = d.queries().get(0);
        assertEquals("10", q.qid());
        assertArrayEquals(new float[] {2, 0}, q.labels());
        assertArrayEquals(new float[] {0.5f, 0, -1.25f, 0, 0.3f, 0}, q.x());
        assertEquals("7", d.queries().get(1).qid());
    }

    @Test
    void gzipIsRecognizedByItsMagicBytes() throws IOException {
        Path p = dir.resolve("b.data");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write("1 qid:1 1:1\n0 qid:1 2:1\n".getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(2, LetorReader.read(p).documents());
    }

    @Test
    void writerRoundTripsExactly() throws IOException {
        Dataset d = CubicData.create(5, 1).sample("cubic", 4, 6, 2);
        Path p = dir.resolve("round.txt.gz");
        LetorWriter.write(d, p);
        Dataset back = LetorReader.read(p, 5);
        assertEquals(d.size(), back.size());
        for (int q = 0; q < d.size(); q++) {
            assertEquals(d.queries().get(q).qid(), back.queries().get(q).qid());
            assertArrayEquals(d.queries().get(q).x(), back.queries().get(q).x());
            assertArrayEquals(d.queries().get(q).labels(), back.queries().get(q).labels());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            truncated line          | 1 qid:1 1:0.5@2                    | 2 | truncated line
            truncated value         | 1 qid:1 1:0.5@0 qid:1 1:           | 2 | feature 1 has no value (truncated line?)
            bad qid                 | 1 qid:1 1:0.5@0 qd:1 1:0.5         | 2 | expected qid:<id> as the second field, found 'qd:1'
            empty qid               | 1 qid: 1:0.5                       | 1 | expected qid:<id>
            feature index 0         | 1 qid:1 0:0.5                      | 1 | feature index 0: indices are 1-based
            negative index          | 1 qid:1 -3:0.5                     | 1 | feature index '-3' is not an integer >= 1
            duplicated index        | 1 qid:1 1:0.5 2:1 2:3              | 1 | feature index 2 appears twice
            duplicated unsorted     | 1 qid:1 5:0.5 2:1 5:3              | 1 | feature index 5 appears twice
            NaN value               | 1 qid:1 1:NaN                      | 1 | value of feature 1 'NaN' is not a number
            Inf value               | 1 qid:1 1:Infinity                 | 1 | value of feature 1 'Infinity' is not a number
            overflowing value       | 1 qid:1 1:1e39                     | 1 | value of feature 1 1e39 is not finite in float32
            non-numeric label       | high qid:1 1:0.5                   | 1 | label 'high' is not a number
            negative label          | -1 qid:1 1:0.5                     | 1 | label -1 is negative
            not index:value         | 1 qid:1 0.5                        | 1 | feature '0.5' is not index:value
            non-contiguous query    | 1 qid:1 1:1@0 qid:2 1:1@1 qid:1 1:1 | 3 | qid 1 appears again after other queries (its earlier lines end at line 1)
            """)
    void malformedInputNamesFileLineAndProblem(String what, String lines, int line, String problem) throws IOException {
        Path p = file("bad.txt", lines.replace('@', '\n') + "\n");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p));
        assertEquals(line, e.line(), what);
        assertTrue(e.getMessage().startsWith(p + ":" + line + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(problem), what + ": " + e.getMessage());
        assertEquals(1, e.getMessage().lines().count(), "one line");
    }

    @Test
    void emptyFileIsAnError() throws IOException {
        Path p = file("empty.txt", "# only a comment\n\n");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p));
        assertEquals(p + ": the file has no data lines", e.getMessage());
    }

    @Test
    void missingFileIsNamed() {
        Path p = dir.resolve("nope.txt");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> LetorReader.read(p));
        assertTrue(e.getMessage().contains("nope.txt"), e.getMessage());
    }

    @Test
    void streamingHandsOverQueriesAndEnforcesWidth() throws IOException {
        Path p = file("s.txt", "1 qid:a 1:1\n0 qid:a 2:1\n2 qid:b 3:1\n");
        List<String> seen = new ArrayList<>();
        LetorReader.stream(p, 4, q -> seen.add(q.qid() + "/" + q.docs() + "/" + q.features()));
        assertEquals(List.of("a/2/4", "b/1/4"), seen);
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.stream(p, 2, q -> { }));
        assertEquals(p + ":3: feature index 3 exceeds the 2 features expected", e.getMessage());
    }

    @Test
    void labelsAboveTheGradeScaleAreFoundWhileReadingWithFileAndLine() throws IOException {
        Path p = file("graded.txt", "4 qid:1 1:1\n0 qid:1 1:2\n\n7 qid:2 1:3\n");
        LetorOptions erR = LetorOptions.DEFAULT.withYmax(4);
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p, 0, erR));
        assertEquals(p + ":4: label 7 is above the grade scale's maximum ymax = 4 (ERR's R(y) = (2^y - 1) / 2^ymax needs"
                + " y <= ymax); set ymax to the data's largest grade", e.getMessage());
        LetorFormatException streamed = assertThrows(LetorFormatException.class, () -> LetorReader.stream(p, 1, erR, q -> { }));
        assertEquals(4, streamed.line());
        Dataset d = LetorReader.read(p, 0, LetorOptions.DEFAULT.withYmax(7));
        assertEquals(7f, d.maxLabel(), "ymax = the largest label reads the file");
        assertEquals(7f, LetorReader.read(p).maxLabel());
    }

    @Test
    void optionsRefuseAGradeScaleThatIsNotPositive() {
        assertThrows(IllegalArgumentException.class, () -> LetorOptions.DEFAULT.withYmax(0));
        assertThrows(IllegalArgumentException.class, () -> LetorOptions.DEFAULT.withYmax(Double.NaN));
    }
}
