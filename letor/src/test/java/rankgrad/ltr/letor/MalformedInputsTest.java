package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Files that are not LETOR text, or LETOR text that cannot be stored: every one gives one line
 * naming the file (and the line, where there is one) and what is wrong. Only the reader's
 * original API is used, so each case also shows what the reader did before it learned the case.
 */
class MalformedInputsTest {
    @TempDir
    Path dir;

    private static final String GOOD = "2 qid:1 1:0.5 2:1\n0 qid:1 1:0.25\n1 qid:2 2:3\n";

    private Path write(String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(content);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    /** The message is one printable line that starts with the file, and the line when there is one. */
    static void assertNamed(IOException e, Path file, long line) {
        String m = e.getMessage();
        String prefix = file + (line > 0 ? ":" + line : "") + ": ";
        assertTrue(m.startsWith(prefix), "expected '" + prefix + "...', got: " + m);
        assertTrue(m.chars().noneMatch(c -> c < 0x20 || c == 0x7f), "no control characters: " + m);
        if (e instanceof LetorFormatException f) {
            assertEquals(line, f.line(), m);
        }
    }

    private LetorFormatException fails(Path p, long line, String problem) {
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p));
        assertNamed(e, p, line);
        assertTrue(e.getMessage().contains(problem), "expected '" + problem + "' in: " + e.getMessage());
        return e;
    }

    @Test
    void utf8ByteOrderMarkIsSkippedInPlainAndGzipFiles() throws IOException {
        byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
        Dataset expected = LetorReader.read(write("plain.txt", bytes(GOOD)));
        for (Path p : new Path[] {write("bom.txt", concat(bom, bytes(GOOD))), write("bom.gz", gzip(concat(bom, bytes(GOOD))))}) {
            Dataset d = LetorReader.read(p);
            assertEquals(expected.size(), d.size(), p.toString());
            assertEquals("1", d.queries().get(0).qid());
            assertArrayEquals(expected.queries().get(0).labels(), d.queries().get(0).labels(), p.toString());
            assertArrayEquals(expected.queries().get(0).x(), d.queries().get(0).x(), p.toString());
        }
    }

    @Test
    void aByteOrderMarkInsideTheFileIsShownEscaped() throws IOException {
        Path p = write("twice.txt", bytes(GOOD + "\ufeff1 qid:3 1:1\n"));
        fails(p, 4, "label '\\ufeff1' is not a number");
    }

    @ParameterizedTest(name = "index {0}")
    @CsvSource({"400000000", "999999999", "1048577", "123456789012345678901234"})
    void hugeFeatureIndicesAreRefusedWithTheirLine(String index) throws IOException {
        Path p = write("wide.txt", bytes("1 qid:1 1:0.5\n0 qid:1 " + index + ":0.5\n"));
        fails(p, 2, "feature index " + index + " is above 1048576 (2^20)");
    }

    @Test
    void theLargestIndexAllowedIsRead() throws IOException {
        Path p = write("widest.txt", bytes("1 qid:1 1048576:0.5\n"));
        Dataset d = LetorReader.read(p);
        assertEquals(LetorReader.MAX_FEATURES, d.features());
        assertEquals(0.5f, d.queries().get(0).feature(0, LetorReader.MAX_FEATURES - 1));
    }

    @Test
    void denseDataLargerThanMemoryIsRefusedBeforeAllocating() {
        // 1000 documents of 2^20 features are 4.2 GB of float32; with 1 GB allowed that must be an error.
        LetorFormatException e = assertThrows(LetorFormatException.class,
                () -> LetorReader.checkDenseFits("big.txt", 1000, 10, 1 << 20, 7, 1_000_000_000L));
        assertEquals("big.txt:7: 1000 documents of 1048576 features (the largest feature index) take 4.2 GB as dense"
                + " float32, more than the 1.0 GB this JVM may use; features are stored densely, so number them compactly"
                + " from 1 (or raise -Xmx)", e.getMessage());
        // One query whose floats exceed a Java array, even with memory to spare.
        assertThrows(LetorFormatException.class, () -> LetorReader.checkDenseFits("q.txt", 3000, 3000, 1 << 20, 2, Long.MAX_VALUE));
        assertDoesNotThrowDense();
    }

    private static void assertDoesNotThrowDense() {
        try {
            LetorReader.checkDenseFits("ok.txt", 1000, 100, 136, 1, 1_000_000_000L);
        } catch (LetorFormatException e) {
            throw new AssertionError("136 features for 1000 documents fit in 1 GB", e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Arabic-Indic index  | 1 qid:1 \u0663:0.5           | feature index '\u0663' is not an integer >= 1 (U+0663 is not an ASCII digit 0-9)
            fullwidth index     | 1 qid:1 \uff11:0.5           | feature index '\uff11' is not an integer >= 1 (U+FF11 is not an ASCII digit 0-9)
            Devanagari value    | 1 qid:1 1:\u0966.5           | value of feature 1 '\u0966.5' is not a number (U+0966 is not an ASCII digit 0-9)
            Arabic-Indic label  | \u0661 qid:1 1:0.5           | label '\u0661' is not a number (U+0661 is not an ASCII digit 0-9)
            """)
    void nonAsciiDigitsAreNotNumbers(String what, String line, String problem) throws IOException {
        fails(write("digits.txt", bytes(line.strip() + "\n")), 1, problem);
    }

    @Test
    void truncatedGzipNamesTheLineWhereTheDataStops() throws IOException {
        StringBuilder text = new StringBuilder();
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 1; i <= 3000; i++) {
            text.append(i % 5).append(" qid:").append(1 + i / 50).append(" 1:").append(rng.nextFloat()).append('\n');
        }
        byte[] gz = gzip(bytes(text.toString()));
        Path p = write("cut.txt.gz", Arrays.copyOf(gz, gz.length / 2));
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p));
        assertTrue(e.getMessage().contains("the gzip data is cut short in this line (a truncated file or download?)"), e.getMessage());
        assertTrue(e.line() > 100 && e.line() < 3000, "the complete lines before the cut are read: " + e.line());
        assertNamed(e, p, e.line());
    }

    @Test
    void damagedGzipIsNamedAsSuch() throws IOException {
        byte[] gz = gzip(bytes(GOOD.repeat(50)));
        for (int at : new int[] {12, gz.length / 2, gz.length - 6}) {
            byte[] bad = gz.clone();
            bad[at] ^= (byte) 0xff;
            Path p = write("bad" + at + ".gz", bad);
            LetorFormatException e = assertThrows(LetorFormatException.class, () -> LetorReader.read(p), "flipped byte " + at);
            assertTrue(e.getMessage().contains(": the gzip data is damaged "), e.getMessage());
            assertNamed(e, p, e.line());
        }
        Path header = write("header.gz", new byte[] {0x1f, (byte) 0x8b, 8});
        fails(header, 0, "the gzip header is damaged or cut short");
        fails(write("twice.gz", gzip(gzip(bytes(GOOD)))), 0, "gzip-compressed twice; decompress it once (gunzip)");
    }

    /** Fixtures made from formats/plain.txt with bzip2, xz, zstd, zip and iconv (UTF-16, UTF-16LE, UTF-32). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            plain.txt.bz2 | bzip2-compressed; decompress it (bunzip2) or recompress it with gzip
            plain.txt.xz  | xz-compressed; decompress it (unxz)
            plain.txt.zst | zstd-compressed; decompress it (unzstd)
            plain.zip     | a zip archive; unzip it
            utf16-bom.txt | UTF-16 text; convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)
            utf16le.txt   | UTF-16 text; convert it to UTF-8
            utf32.txt     | UTF-32 text; convert it to UTF-8 (iconv -f UTF-32 -t UTF-8)
            """)
    void compressedArchivedAndWideTextFilesAreNamedWithWhatTheyAre(String fixture, String problem) throws Exception {
        Path p = resource("formats/" + fixture);
        fails(p, 0, problem);
        byte[] gz = gzip(Files.readAllBytes(p));
        fails(write(fixture + ".gz", gz), 0, problem.substring(0, problem.indexOf(';')) + " inside gzip;");
    }

    @Test
    void thePlainFixtureBehindTheFormatsReads() throws Exception {
        assertEquals(30, LetorReader.read(resource("formats/plain.txt")).documents());
    }

    @Test
    void binaryDataIsNamedAndNeverEchoed() throws IOException {
        byte[] junk = new byte[3000];
        new SplittableRandom(3).nextBytes(junk);
        fails(write("random.bin", junk), 0, "binary data; rankgrad reads LETOR / SVMlight text, plain or gzip-compressed");
        byte[] elf = concat(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, new byte[200]);
        fails(write("program", elf), 0, "binary data; rankgrad reads LETOR / SVMlight text, plain or gzip-compressed");
    }

    @Test
    void strayControlBytesInTextAreShownEscapedOnTheirLine() throws IOException {
        fails(write("stray.txt", bytes(GOOD + "1 qid:3 1:0.5\u0001\n")), 4, "value of feature 1 '0.5\\u0001' is not a number");
        fails(write("qid.txt", bytes(GOOD + "1 qid:\u00073 1:0.5\n")), 4, "qid '\\u00073' holds a control character");
        byte[] latin1 = concat(bytes(GOOD), new byte[] {'1', ' ', 'q', 'i', 'd', ':', (byte) 0xe9, ' ', '1', ':', '1', '\n'});
        fails(write("latin1.txt", latin1), 4, "qid '\\xe9' is not UTF-8 text");
    }

    @Test
    void aDirectoryIsNamed() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("Fold1"));
        IOException e = assertThrows(IOException.class, () -> LetorReader.read(sub));
        assertEquals(sub + ": a directory, not a file", e.getMessage());
    }

    @Test
    void aPathThroughAFileIsNamed() throws IOException {
        Path p = write("plain.txt", bytes(GOOD)).resolve("train.txt");
        IOException e = assertThrows(IOException.class, () -> LetorReader.read(p));
        assertNamed(e, p, 0);
    }

    @Test
    void anUnreadableFileIsNamed() throws IOException {
        Path p = write("secret.txt", bytes(GOOD));
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(p), "running as a user who reads every file (root)");
        IOException e = assertThrows(IOException.class, () -> LetorReader.read(p));
        assertEquals(p + ": permission denied: the file cannot be read", e.getMessage());
    }

    @ParameterizedTest(name = "label {0}")
    @CsvSource({"32", "128", "300", "2000", "1e30"})
    void gradesWhoseGainOverflowsAreRefusedWithTheirLine(String label) throws IOException {
        fails(write("grades.txt", bytes(GOOD + label + " qid:3 1:1\n")), 4, "label " + label + " is above 31, the largest grade read");
    }

    @Test
    void gradeThirtyOneIsRead() throws IOException {
        assertEquals(31f, LetorReader.read(write("g31.txt", bytes("31 qid:1 1:1\n"))).maxLabel());
    }

    @Test
    void zeroBasedIndicesSayHowToWriteOneBasedOnes() throws IOException {
        fails(write("zero.txt", bytes("1 qid:1 0:0.5\n")), 1, "feature index 0: indices are 1-based (scikit-learn writes 1-based"
                + " files with dump_svmlight_file(..., zero_based=False))");
    }

    @Test
    void windowsLineEndsAreWhiteSpace() throws IOException {
        Dataset d = LetorReader.read(write("crlf.txt", bytes(GOOD.replace("\n", "\r\n"))));
        Dataset expected = LetorReader.read(write("lf.txt", bytes(GOOD)));
        assertEquals(expected.size(), d.size());
        for (int q = 0; q < d.size(); q++) {
            assertArrayEquals(expected.queries().get(q).x(), d.queries().get(q).x());
            assertArrayEquals(expected.queries().get(q).labels(), d.queries().get(q).labels());
        }
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(MalformedInputsTest.class.getResource(name).toURI());
    }
}
