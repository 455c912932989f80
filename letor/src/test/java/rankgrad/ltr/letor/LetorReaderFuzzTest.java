package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzes the LETOR reader: random byte and line mutations of valid files, plain and gzip-compressed
 * (the gzip data itself damaged too), each read by {@link LetorReader} and by an independent,
 * slow reference reader written from the format's rules with regular expressions. Every outcome
 * must be either the reference's dataset, bit for bit, or a {@link LetorFormatException} whose one
 * printable line names the file and the same line as the reference; nothing else may escape.
 *
 * <p>Seeded and bounded in time: {@code -Drankgrad.fuzz.seed=N} replays a run (the seed is printed),
 * {@code -Drankgrad.fuzz.seconds=S} runs longer than the default build's 3 seconds.
 */
class LetorReaderFuzzTest {
    private static final long SEED = Long.getLong("rankgrad.fuzz.seed", 20_261_123L);
    private static final double SECONDS = Double.parseDouble(System.getProperty("rankgrad.fuzz.seconds", "3"));

    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final String SPACE = "[ \\t\\r\\f\\x0B]+";
    private static final int[] GROUPS = {4, 3, 5, 2, 6};
    private static final String[] TOKENS = {"qid:", "qid:1", "qid:", ":", "1:", ":0.5", "#", "\n", " ", "\t", "\r\n",
        "1e39", "NaN", "-1", "-0", "400000000:1", "1048576:2", "0:1", "99", "31", "32", "1.", ".5e-3", "\u0663",
        "\ufeff", "\u00e9", "qid:\u00e9", "3:4 3:5", "\u0000", "e", "+", "..", "12345678901:1"};

    @TempDir
    Path dir;

    @Test
    void everyMutationReadsCorrectlyOrFailsWithOneLineNamingFileAndLine() throws IOException {
        System.out.printf(Locale.ROOT, "LETOR reader fuzz: seed %d for %.1f s (-Drankgrad.fuzz.seed, -Drankgrad.fuzz.seconds)%n",
                SEED, SECONDS);
        SplittableRandom rng = new SplittableRandom(SEED);
        List<byte[]> corpus = corpus();
        Path plain = dir.resolve("f.txt");
        Path grouped = dir.resolve("g.txt");
        Files.writeString(dir.resolve("g.txt.query"), Arrays.stream(GROUPS).mapToObj(Integer::toString)
                .reduce("", (a, b) -> a + b + "\n"));
        long deadline = System.nanoTime() + (long) (SECONDS * 1e9);
        int runs = 0;
        int reads = 0;
        while (System.nanoTime() < deadline) {
            int which = rng.nextInt(corpus.size());
            boolean isGrouped = which == corpus.size() - 1;
            byte[] text = corpus.get(which);
            for (int m = 1 + rng.nextInt(3); m > 0; m--) {
                text = rng.nextBoolean() ? mutateBytes(text, rng) : mutateLines(text, rng);
            }
            byte[] file = text;
            if (rng.nextInt(3) == 0) {
                file = gzip(text);
                if (rng.nextInt(3) == 0) {
                    file = damage(file, rng);
                }
            }
            Path p = isGrouped ? grouped : plain;
            Files.write(p, file);
            Reference expected = Reference.read(file, isGrouped ? GROUPS : null);
            reads += check(p, file, expected, runs) ? 1 : 0;
            runs++;
        }
        System.out.printf(Locale.ROOT, "LETOR reader fuzz: %d files, %d read, %d refused%n", runs, reads, runs - reads);
        assertTrue(runs > 0);
    }

    /** Checks one file; true when it was read. */
    private static boolean check(Path p, byte[] file, Reference expected, int run) {
        String context = "seed " + SEED + ", file " + run + ": " + show(file) + "\nreference: " + expected;
        Dataset d;
        try {
            d = LetorReader.read(p);
        } catch (LetorFormatException e) {
            String m = e.getMessage();
            assertTrue(m.startsWith(p + (e.line() > 0 ? ":" + e.line() : "") + ": "), m + "\n" + context);
            assertTrue(m.chars().noneMatch(c -> c < 0x20 || c == 0x7f), "one printable line: " + m + "\n" + context);
            assertTrue(expected.failed(), "the reference reads this file; the reader says " + m + "\n" + context);
            if (!expected.gzipDamaged()) {
                assertEquals(expected.errorLine(), e.line(), m + "\n" + context);
            }
            return false;
        } catch (Throwable t) {
            throw new AssertionError("escaped: " + t + "\n" + context, t);
        }
        if (expected.failed()) {
            fail("the reference refuses this file (line " + expected.errorLine() + "), the reader read it\n" + context);
        }
        assertEquals(expected.queries().size(), d.size(), context);
        assertEquals(expected.features(), d.features(), context);
        for (int q = 0; q < d.size(); q++) {
            Query got = d.queries().get(q);
            Reference.Doc[] docs = expected.queries().get(q).docs().toArray(Reference.Doc[]::new);
            assertEquals(expected.queries().get(q).qid(), got.qid(), context);
            float[] labels = new float[docs.length];
            float[] x = new float[docs.length * d.features()];
            for (int i = 0; i < docs.length; i++) {
                labels[i] = docs[i].label();
                for (int t = 0; t < docs[i].index().length; t++) {
                    x[i * d.features() + docs[i].index()[t] - 1] = docs[i].value()[t];
                }
            }
            assertArrayEquals(labels, got.labels(), context);
            assertArrayEquals(x, got.x(), context);
        }
        return true;
    }

    /**
     * The reference reader: the format's rules, one at a time, on a whole decoded file. A failure
     * is the first line that breaks a rule (0 for the whole file).
     */
    record Reference(List<RQuery> queries, int features, boolean failed, long errorLine, boolean gzipDamaged) {
        record Doc(float label, int[] index, float[] value) {
        }

        record RQuery(String qid, List<Doc> docs) {
        }

        static Reference fail(long line) {
            return new Reference(List.of(), 0, true, line, false);
        }

        static Reference read(byte[] file, int[] groups) {
            byte[] text = file;
            if (file.length >= 2 && (file[0] & 0xff) == 0x1f && (file[1] & 0xff) == 0x8b) {
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(file))) {
                    text = in.readAllBytes();
                } catch (IOException e) {
                    return new Reference(List.of(), 0, true, -1, true);
                }
                if (text.length >= 2 && (text[0] & 0xff) == 0x1f && (text[1] & 0xff) == 0x8b) {
                    return fail(0);
                }
            }
            if (FileKind.of(text, Math.min(text.length, FileKind.SNIFF_BYTES)) != FileKind.TEXT) {
                return fail(0);
            }
            int from = text.length >= 3 && (text[0] & 0xff) == 0xef && (text[1] & 0xff) == 0xbb && (text[2] & 0xff) == 0xbf ? 3 : 0;
            String all = new String(text, from, text.length - from, StandardCharsets.ISO_8859_1);
            List<String> lines = new ArrayList<>(Arrays.asList(all.split("\n", -1)));
            if (lines.get(lines.size() - 1).isEmpty()) {
                lines.remove(lines.size() - 1);
            }
            List<RQuery> queries = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            Boolean qidMode = null;
            int maxIndex = 0;
            int group = -1;
            int left = 0;
            boolean excess = false;
            for (int i = 0; i < lines.size(); i++) {
                long line = i + 1;
                String body = lines.get(i);
                if (body.indexOf('#') >= 0) {
                    body = body.substring(0, body.indexOf('#'));
                }
                String[] tok = Arrays.stream(body.split(SPACE)).filter(s -> !s.isEmpty()).toArray(String[]::new);
                if (tok.length == 0) {
                    continue;
                }
                if (excess) {
                    continue;
                }
                Float label = number(tok[0]);
                if (label == null || label < 0 || label > 31) {
                    return fail(line);
                }
                boolean hasQid = tok.length > 1 && tok[1].startsWith("qid:");
                if (qidMode == null) {
                    qidMode = hasQid || groups == null;
                }
                int first;
                if (qidMode) {
                    if (!hasQid || tok[1].length() == 4) {
                        return fail(line);
                    }
                    first = 2;
                } else {
                    if (hasQid) {
                        return fail(line);
                    }
                    first = 1;
                }
                int n = tok.length - first;
                int[] index = new int[n];
                float[] value = new float[n];
                Set<Integer> onLine = new HashSet<>();
                for (int t = 0; t < n; t++) {
                    String f = tok[first + t];
                    int colon = f.indexOf(':');
                    if (colon < 0 || !DIGITS.matcher(f.substring(0, colon)).matches()) {
                        return fail(line);
                    }
                    BigInteger k = new BigInteger(f.substring(0, colon));
                    Float v = number(f.substring(colon + 1));
                    if (k.signum() == 0 || k.compareTo(BigInteger.valueOf(LetorReader.MAX_FEATURES)) > 0 || v == null
                            || !onLine.add(k.intValue())) {
                        return fail(line);
                    }
                    index[t] = k.intValue();
                    value[t] = v;
                    maxIndex = Math.max(maxIndex, index[t]);
                }
                Doc doc = new Doc(label, index, value);
                if (qidMode) {
                    byte[] raw = tok[1].substring(4).getBytes(StandardCharsets.ISO_8859_1);
                    String qid = qid(raw);
                    if (qid == null) {
                        return fail(line);
                    }
                    if (queries.isEmpty() || !queries.get(queries.size() - 1).qid().equals(qid)) {
                        if (!seen.add(qid)) {
                            return fail(line);
                        }
                        queries.add(new RQuery(qid, new ArrayList<>()));
                    }
                } else {
                    if (left == 0) {
                        if (group + 1 == groups.length) {
                            excess = true;
                            continue;
                        }
                        group++;
                        left = groups[group];
                        queries.add(new RQuery(Integer.toString(group + 1), new ArrayList<>()));
                    }
                    left--;
                }
                queries.get(queries.size() - 1).docs().add(doc);
            }
            if (excess || queries.isEmpty() || qidMode != null && !qidMode && (group < groups.length - 1 || left > 0)) {
                return fail(0);
            }
            return new Reference(queries, maxIndex, false, 0, false);
        }

        /** A finite float32 in the grammar of LETOR numbers, or null. */
        private static Float number(String s) {
            if (!NUMBER.matcher(s).matches()) {
                return null;
            }
            float v = Float.parseFloat(s);
            return Float.isFinite(v) ? v : null;
        }

        /** A qid's text: no control characters, UTF-8; or null. */
        private static String qid(byte[] raw) {
            for (byte b : raw) {
                if ((b & 0xff) < 0x20 || b == 0x7f) {
                    return null;
                }
            }
            return Printable.strictUtf8(raw, 0, raw.length);
        }

        @Override
        public String toString() {
            return failed ? (gzipDamaged ? "damaged gzip" : "fails at line " + errorLine)
                    : queries.size() + " queries of " + features + " features";
        }
    }

    private static List<byte[]> corpus() {
        SplittableRandom rng = new SplittableRandom(1);
        StringBuilder a = new StringBuilder("# a LETOR file\n");
        for (int q = 1; q <= 6; q++) {
            for (int d = 0; d < 2 + rng.nextInt(5); d++) {
                a.append(rng.nextInt(5)).append(" qid:").append(q * 7);
                for (int f = 1; f <= 12; f++) {
                    if (rng.nextInt(3) > 0) {
                        a.append(' ').append(f).append(':').append(switch (f % 4) {
                            case 0 -> Float.toString(rng.nextFloat() - 0.5f);
                            case 1 -> Integer.toString(rng.nextInt(100));
                            case 2 -> String.format(Locale.ROOT, "%.3e", rng.nextDouble(-1e5, 1e5));
                            default -> "0." + rng.nextInt(1000);
                        });
                    }
                }
                a.append(d % 3 == 0 ? " # doc " + d : "").append(d % 4 == 1 ? "\r\n" : "\n");
            }
            a.append(q % 2 == 0 ? "\n" : "");
        }
        String letor = a.toString();
        String unsorted = "2 qid:q\u00e9 3:1 1:0.5\t2:-2\n0 qid:q\u00e9 5:1e-3 4:7\n1 qid:Q-2 2:.5 1:1.\n3 qid:Q-2\n";
        StringBuilder g = new StringBuilder();
        for (int size : GROUPS) {
            for (int d = 0; d < size; d++) {
                g.append(rng.nextInt(3)).append(" 1:").append(rng.nextInt(9)).append(" 3:0.").append(rng.nextInt(99)).append('\n');
            }
        }
        return List.of(letor.getBytes(StandardCharsets.UTF_8), ("\ufeff" + letor).getBytes(StandardCharsets.UTF_8),
                unsorted.getBytes(StandardCharsets.UTF_8), g.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] mutateBytes(byte[] b, SplittableRandom rng) {
        if (b.length == 0) {
            return TOKENS[rng.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8);
        }
        int at = rng.nextInt(b.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (rng.nextInt(5)) {
            case 0 -> {
                byte[] c = b.clone();
                c[at] ^= (byte) (1 << rng.nextInt(8));
                return c;
            }
            case 1 -> {
                byte[] c = b.clone();
                c[at] = (byte) rng.nextInt(256);
                return c;
            }
            case 2 -> {
                out.write(b, 0, at);
                out.writeBytes(TOKENS[rng.nextInt(TOKENS.length)].getBytes(StandardCharsets.UTF_8));
                out.write(b, at, b.length - at);
            }
            case 3 -> {
                int n = Math.min(1 + rng.nextInt(8), b.length - at);
                out.write(b, 0, at);
                out.write(b, at + n, b.length - at - n);
            }
            default -> {
                int n = Math.min(1 + rng.nextInt(12), b.length - at);
                out.write(b, 0, at + n);
                out.write(b, at, b.length - at);
            }
        }
        return out.toByteArray();
    }

    private static byte[] mutateLines(byte[] b, SplittableRandom rng) {
        List<String> lines = new ArrayList<>(Arrays.asList(new String(b, StandardCharsets.ISO_8859_1).split("\n", -1)));
        int i = rng.nextInt(lines.size());
        int j = rng.nextInt(lines.size());
        switch (rng.nextInt(7)) {
            case 0 -> lines.remove(i);
            case 1 -> lines.add(i, lines.get(j));
            case 2 -> {
                String s = lines.get(i);
                lines.set(i, lines.get(j));
                lines.set(j, s);
            }
            case 3 -> lines.set(i, lines.get(i).substring(0, rng.nextInt(lines.get(i).length() + 1)));
            case 4 -> {
                byte[] junk = new byte[rng.nextInt(20)];
                rng.nextBytes(junk);
                lines.add(i, new String(junk, StandardCharsets.ISO_8859_1).replace('\n', ' '));
            }
            case 5 -> lines.add(i, rng.nextBoolean() ? "" : "# comment \u00ff");
            default -> lines.set(i, lines.get(i).replaceFirst("qid:\\S+", "qid:" + (1 + rng.nextInt(50))));
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] damage(byte[] gz, SplittableRandom rng) {
        byte[] c;
        switch (rng.nextInt(4)) {
            case 0 -> {
                c = gz.clone();
                c[rng.nextInt(c.length)] ^= (byte) (1 + rng.nextInt(255));
            }
            case 1 -> c = Arrays.copyOf(gz, rng.nextInt(gz.length));
            case 2 -> {
                c = Arrays.copyOf(gz, gz.length + 1 + rng.nextInt(30));
                for (int i = gz.length; i < c.length; i++) {
                    c[i] = (byte) rng.nextInt(256);
                }
            }
            default -> {
                c = gz.clone();
                c[rng.nextInt(Math.min(10, c.length))] = (byte) rng.nextInt(256);
            }
        }
        return c;
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    private static String show(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, 3000); i++) {
            int c = b[i] & 0xff;
            sb.append(c == '\n' ? "\\n\n" : c >= 0x20 && c < 0x7f && c != '\\' ? Character.toString(c) : String.format("\\x%02x", c));
        }
        return sb.toString();
    }
}
