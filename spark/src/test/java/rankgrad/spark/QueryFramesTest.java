package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.letor.LetorFormatException;
import rankgrad.ltr.letor.LetorReader;

class QueryFramesTest {
    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(QueryFramesTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void queriesComeBackWholeFromSplitsFarSmallerThanAQuery() throws Exception {
        Path file = LetorFixtures.write(dir, "tiny-splits.txt", LetorFixtures.text(20, 1));
        List<QueryRow> expected = LetorFixtures.readInOneJvm(file, LetorFixtures.FEATURES, false);
        // 97 bytes: less than one line, so every query of two or more lines falls into several splits.
        Dataset<QueryRow> frame = QueryFrames.readLetor(spark, LetorInput.of(file.toString())
                .withWidth(LetorFixtures.FEATURES).withSplitBytes(97));
        assertTrue(frame.rdd().getNumPartitions() > 10, "one region per query start: " + frame.rdd().getNumPartitions());
        assertSameQueries(expected, frame.collectAsList());
        // The same with one split (the session's default size) and with the width found in the data.
        assertSameQueries(expected, QueryFrames.readLetor(spark, LetorInput.of(file.toString())).collectAsList());
        assertEquals(LetorReader.read(file).features(), QueryFrames.readLetor(spark, LetorInput.of(file.toString())
                .withSplitBytes(97)).first().getWidth());
    }

    @Test
    void readsGzipAndDirectoriesInNameOrder() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("dir"));
        Path a = LetorFixtures.writeGzip(sub, "a.txt.gz", LetorFixtures.text(5, 2));
        Path b = LetorFixtures.write(sub, "b.txt", LetorFixtures.text(6, 3));
        LetorFixtures.write(sub, "_SUCCESS", "");
        List<QueryRow> expected = new ArrayList<>(LetorFixtures.readInOneJvm(a, LetorFixtures.FEATURES, false));
        expected.addAll(LetorFixtures.readInOneJvm(b, LetorFixtures.FEATURES, false));
        List<QueryRow> got = QueryFrames.readLetor(spark, LetorInput.of(sub.toUri().toString())
                .withWidth(LetorFixtures.FEATURES).withSplitBytes(400)).collectAsList();
        assertSameQueries(expected, got);
        assertTrue(got.get(0).getFile().endsWith("a.txt.gz") && got.get(got.size() - 1).getFile().endsWith("b.txt"));
    }

    @Test
    void malformedLineFailsNamingTheFileAndItsLineInTheWholeFile() throws Exception {
        List<String> lines = new ArrayList<>(List.of(LetorFixtures.text(15, 4).split("\n")));
        int bad = lines.size() - 7;
        while (!lines.get(bad).contains("qid:")) {
            bad--;
        }
        lines.set(bad, lines.get(bad).replace(" # docid", " 5:1.5x # docid"));
        Path file = LetorFixtures.write(dir, "bad.txt", String.join("\n", lines) + "\n");
        String oneJvm = assertThrows(Exception.class, () -> LetorReader.read(file)).getMessage();
        Exception e = assertThrows(Exception.class, () -> QueryFrames.readLetor(spark, LetorInput.of(file.toString())
                .withWidth(LetorFixtures.FEATURES).withSplitBytes(600)).collectAsList());
        assertTrue(oneJvm.startsWith(file + ":" + (bad + 1) + ": "), oneJvm);
        assertTrue(e.getMessage().contains(oneJvm), "Spark's message carries the reader's: " + e.getMessage());
        assertEquals(List.of(), regionCopiesOf("5:1.5x"), "the failed task removed its region's temporary copy");
    }

    /**
     * RegionReader's temporary copies ({@code rankgrad-region-*.txt} in java.io.tmpdir) still there
     * that hold {@code marker}: this test's data, not another process's.
     */
    private static List<Path> regionCopiesOf(String marker) throws java.io.IOException {
        List<Path> out = new ArrayList<>();
        try (var files = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")),
                "rankgrad-region-*.txt")) {
            for (Path p : files) {
                try {
                    if (Files.readString(p).contains(marker)) {
                        out.add(p);
                    }
                } catch (java.io.IOException gone) {
                    // removed meanwhile: not left behind
                }
            }
        }
        return out;
    }

    @Test
    void lineWithoutQidFailsNamingItsLine() throws Exception {
        List<String> lines = new ArrayList<>(List.of(LetorFixtures.text(15, 5).split("\n")));
        int bad = lines.size() / 2;
        lines.set(bad, "1 3:0.5");
        Path file = LetorFixtures.write(dir, "noqid.txt", String.join("\n", lines) + "\n");
        LetorFormatException e = assertThrows(LetorFormatException.class, () -> QueryFrames.readLetor(spark,
                LetorInput.of(file.toString()).withWidth(LetorFixtures.FEATURES).withSplitBytes(600)));
        assertEquals(bad + 1, e.line());
        assertEquals(file.toString(), e.file());
    }

    @Test
    void documentsTableGathersWholeQueriesInOrder() throws Exception {
        Path file = LetorFixtures.write(dir, "table.txt", LetorFixtures.text(25, 6));
        List<QueryRow> expected = LetorFixtures.readInOneJvm(file, LetorFixtures.FEATURES, false);
        StructType schema = DataTypes.createStructType(List.of(
                DataTypes.createStructField("query", DataTypes.StringType, false),
                DataTypes.createStructField("grade", DataTypes.IntegerType, false),
                DataTypes.createStructField("vec", DataTypes.createArrayType(DataTypes.DoubleType, false), false),
                DataTypes.createStructField("seq", DataTypes.LongType, false),
                DataTypes.createStructField("doc", DataTypes.StringType, false)));
        Dataset<Row> docs = QueryFrames.readLetor(spark, LetorInput.of(file.toString()).withWidth(LetorFixtures.FEATURES))
                .flatMap((FlatMapFunction<QueryRow, Row>) q -> {
                    List<Row> out = new ArrayList<>();
                    for (int i = 0; i < q.docs(); i++) {
                        double[] v = new double[q.getWidth()];
                        for (int f = 0; f < v.length; f++) {
                            v[f] = q.getFeatures()[i * q.getWidth() + f];
                        }
                        out.add(RowFactory.create(q.getQid(), (int) q.getLabels()[i], v, q.getOrder() * 1000 + i,
                                q.getDocIds()[i]));
                    }
                    return out.iterator();
                }, Encoders.row(schema)).repartition(3);
        List<QueryRow> got = QueryFrames.fromDocuments(docs, "query", "grade", "vec", "seq", "doc").sort("order")
                .collectAsList();
        assertSameQueries(expected, got);
    }

    private static void assertSameQueries(List<QueryRow> expected, List<QueryRow> got) {
        assertEquals(expected.size(), got.size(), "queries");
        for (int q = 0; q < got.size(); q++) {
            QueryRow e = expected.get(q);
            QueryRow g = got.get(q);
            assertEquals(e.getQid(), g.getQid(), "query " + q);
            assertArrayEquals(e.getLabels(), g.getLabels(), "labels of " + e.getQid());
            assertArrayEquals(e.getFeatures(), g.getFeatures(), "features of " + e.getQid());
            assertArrayEquals(e.getDocIds(), g.getDocIds(), "doc ids of " + e.getQid());
            assertEquals(e.getWidth(), g.getWidth());
            if (q > 0) {
                assertTrue(g.getOrder() > got.get(q - 1).getOrder(), "order increases in file order");
            }
        }
    }
}
