package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

class CompareCommandTest {
    private static final String[] LOSSES = {"ndcg-type3", "ranknet", "listnet"};
    private static final String[] METRICS = {"ndcg@1", "ndcg@3", "ndcg@5", "ndcg@10", "ndcg@20", "map@1", "map@3", "map@5",
        "map@10", "map@20"};

    @TempDir
    Path dir;

    /** Writes Fold1 and Fold2 of small cubic data, each fold sampled with its own seed. */
    private Path folds() throws Exception {
        Path data = dir.resolve("data");
        for (int k = 1; k <= 2; k++) {
            CubicData gen = CubicData.create(6, 10 + k);
            String[] names = {"train", "vali", "test"};
            int[] queries = {24, 12, 12};
            for (int i = 0; i < 3; i++) {
                LetorWriter.write(gen.sample(names[i], queries[i], 10, 100 * k + i), data.resolve("Fold" + k).resolve(names[i]
                        + ".txt"));
            }
        }
        return data;
    }

    private static CliTest.Run compare(Path data, String folds, Path out) {
        return CliTest.run("compare", "--losses", String.join(",", LOSSES), "--data", data.toString(), "--folds", folds,
                "--model", "linear", "--epochs", "2", "--batch-queries", "8", "--lr", "0.01", "--out", out.toString());
    }

    @Test
    void comparesEveryLossOnEveryFoldAndWritesMarkdownAndCsv() throws Exception {
        Path data = folds();
        Path out = dir.resolve("out");
        CliTest.Run r = compare(data, "1..2", out);
        assertEquals(0, r.code(), r.err());
        for (int k = 1; k <= 2; k++) {
            for (String loss : LOSSES) {
                assertTrue(Files.exists(out.resolve("Fold" + k).resolve(loss).resolve("model.json")), k + " " + loss);
            }
        }
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.contains("(24 in all"), "12 test queries of each of the two folds are pooled: " + md);
        assertTrue(r.out().contains(md), "the report is printed as written");
        assertTrue(r.out().contains("conventions: " + MetricConventions.defaults().describe()), r.out());
        assertFalse(r.out().contains(ComparisonTable.legend()), "compare says its own rule, not the test-bold legend of eval");
        List<String> tableLines = md.lines().filter(l -> l.startsWith("|")).toList();
        assertEquals(2 + LOSSES.length, tableLines.size(), md);
        String[] header = cells(tableLines.get(0));
        String[] testHeader = Arrays.stream(METRICS).map(m -> "test " + m).toArray(String[]::new);
        assertArrayEquals(concat("loss", concat("valid ndcg@5", testHeader)), Arrays.copyOf(header, header.length - 1));
        assertEquals("seconds", header[header.length - 1]);
        assertTrue(md.contains("Selected on validation ndcg@5: each run's epoch, and the row to choose; best validation in"
                + " bold"), "the table says its selection rule: " + md);

        List<String> csv = Files.readAllLines(out.resolve("compare.csv"));
        assertEquals("loss,metric,mean,ci95,p_vs_best,worse_than_best,seconds,valid_mean,valid_ci95,selected", csv.get(0));
        assertEquals(1 + LOSSES.length * METRICS.length, csv.size());
        Map<String, String[]> byKey = new HashMap<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            assertEquals(10, f.length, line);
            assertTrue(Double.parseDouble(f[6]) > 0, "seconds of the row's runs: " + line);
            byKey.put(f[0] + " " + f[1], f);
        }
        double bestValid = Double.NEGATIVE_INFINITY;
        for (String loss : LOSSES) {
            bestValid = Math.max(bestValid, Double.parseDouble(byKey.get(loss + " ndcg@5")[7]));
        }
        for (int l = 0; l < LOSSES.length; l++) {
            String validCell = cells(tableLines.get(2 + l))[1];
            String[] f = byKey.get(LOSSES[l] + " ndcg@5");
            boolean selected = Double.parseDouble(f[7]) == bestValid;
            assertEquals(selected, validCell.startsWith("**") && validCell.endsWith("**"), "bold marks the best validation: "
                    + validCell);
            assertTrue(validCell.contains(f[7].substring(0, 5)), validCell + " shows the validation mean " + f[7]);
            for (int c = 0; c < METRICS.length; c++) {
                assertEquals(Boolean.toString(selected), byKey.get(LOSSES[l] + " " + METRICS[c])[9], "selected on every line");
            }
        }
        for (int c = 0; c < METRICS.length; c++) {
            double max = Double.NEGATIVE_INFINITY;
            for (String loss : LOSSES) {
                max = Math.max(max, Double.parseDouble(byKey.get(loss + " " + METRICS[c])[2]));
            }
            for (int l = 0; l < LOSSES.length; l++) {
                String[] f = byKey.get(LOSSES[l] + " " + METRICS[c]);
                String cell = cells(tableLines.get(2 + l))[c + 2];
                assertFalse(cell.startsWith("**"), "a test cell is never bold, the best one included: " + cell);
                assertTrue(cell.contains(f[2].substring(0, 5)), cell + " shows the mean " + f[2]);
                boolean worse = Boolean.parseBoolean(f[5]);
                assertEquals(worse, cell.endsWith(" " + ComparisonTable.WORSE), cell);
                if (worse) {
                    assertTrue(Double.parseDouble(f[4]) < ComparisonTable.ALPHA && Double.parseDouble(f[2]) < max, line(f));
                }
            }
        }
        assertPooledMeanMatchesTheSavedModels(data, out, "ranknet", "ndcg@5", "test.txt",
                Double.parseDouble(byKey.get("ranknet ndcg@5")[2]));
        assertPooledMeanMatchesTheSavedModels(data, out, "listnet", "ndcg@5", "vali.txt",
                Double.parseDouble(byKey.get("listnet ndcg@5")[7]));
    }

    /** The CSV mean is the mean over both folds' test (or validation) queries of the saved models' per-query values. */
    private static void assertPooledMeanMatchesTheSavedModels(Path data, Path out, String loss, String metric, String file,
            double csvMean) throws Exception {
        double sum = 0;
        int n = 0;
        for (int k = 1; k <= 2; k++) {
            RankingModel m = ModelFile.read(out.resolve("Fold" + k).resolve(loss).resolve("model.json"));
            Dataset t = LetorReader.read(data.resolve("Fold" + k).resolve(file), m.features());
            for (double v : Metric.parse(metric).perQuery(m.scorer().score(t), t.labelBatch(t.allQueries()),
                    MetricConventions.defaults())) {
                if (!Double.isNaN(v)) {
                    sum += v;
                    n++;
                }
            }
        }
        // The CSV holds six decimals: half a unit of the last place.
        assertEquals(sum / n, csvMean, 5e-7);
    }

    @Test
    void badArgumentsExitWithTwoAndOneMessage() throws Exception {
        Path data = folds();
        Path out = dir.resolve("bad");
        String[][] cases = {
            {"--losses", "ndcg-type9", "--losses: unknown loss 'ndcg-type9'"},
            {"--losses", "ranknet,spsa:4", "spsa:4 is gradient-free and not supported by compare"},
            {"--losses", "fdsa", "fdsa is gradient-free and not supported by compare"},
            {"--losses", "ranknet,ranknet", "ranknet is named twice"},
            {"--folds", "3..1", "--folds: reversed range '3..1'"},
            {"--folds", "0..2", "--folds: folds are numbered from 1"},
            {"--folds", "one", "--folds: 'one' is not a fold list"},
            {"--metrics", "ndcg@5,foo@3", "--metrics: "},
            {"--model", "R7", "--model: unknown model 'R7'"},
            {"--epochs", "0", "--epochs must be >= 1, got 0"},
        };
        for (String[] c : cases) {
            Map<String, String> options = new LinkedHashMap<>(Map.of("--losses", "ranknet", "--data", data.toString(), "--folds",
                    "1", "--out", out.toString()));
            options.put(c[0], c[1]);
            List<String> args = new ArrayList<>(List.of("compare"));
            options.forEach((k, v) -> args.addAll(List.of(k, v)));
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), c[1] + ": " + r.err());
            assertEquals(1, r.err().lines().count(), "one line, not the usage text: " + r.err());
            assertTrue(r.err().startsWith("rankgrad compare: ") && r.err().contains(c[2]), c[1] + ": " + r.err());
        }
        assertTrue(Files.notExists(out), "nothing is trained or written when an argument is bad");
    }

    @Test
    void aMissingFoldFileExitsWithOneAndNamesIt() throws Exception {
        Path data = folds();
        Files.delete(data.resolve("Fold2").resolve("vali.txt"));
        Path out = dir.resolve("missing");
        CliTest.Run r = compare(data, "1..2", out);
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith("rankgrad: no such file: " + data.resolve("Fold2").resolve("vali.txt")), r.err());
        assertTrue(Files.notExists(out), "every fold is checked before any training starts");
        CliTest.Run third = compare(data, "3", out);
        assertEquals(1, third.code(), third.err());
        assertTrue(third.err().contains(data.resolve("Fold3").resolve("train.txt").toString()), third.err());
    }

    @Test
    void foldRangesAreRangesListsOrSingleFolds() {
        assertArrayEquals(new int[] {1, 2, 3, 4, 5}, FoldRange.parse("1..5"));
        assertArrayEquals(new int[] {1, 3}, FoldRange.parse("1,3"));
        assertArrayEquals(new int[] {2}, FoldRange.parse("2"));
        assertArrayEquals(new int[] {1, 2, 3, 5}, FoldRange.parse("1..3, 5"));
        for (String bad : new String[] {"", "1..", "..2", "1,,2", "1..3,2", "-1", "2..1", "1.5"}) {
            assertThrows(IllegalArgumentException.class, () -> FoldRange.parse(bad), bad);
        }
    }

    @Test
    void lossNamesBecomePortableFolderNames() {
        assertEquals("approx-ndcg_5", CompareCommand.folderName("approx-ndcg:5"));
        assertEquals("precision@10-type3", CompareCommand.folderName("precision@10-type3"));
    }

    /**
     * Hand-made per-query values over 30 queries: "tie" equals "best", "worse" is 0.1 below it on
     * every query (Wilcoxon p = 2 / 2^30), "close" is below it on two queries only (p = 0.5), and
     * "nan" has an excluded query that must leave that query out of every row's column.
     */
    @Test
    void boldMarksTheColumnMaximumAndTheMarkerOnlySignificantlyWorseResults() {
        int n = 30;
        double[] best = new double[n];
        for (int q = 0; q < n; q++) {
            best[q] = 0.3 + 0.02 * q;
        }
        double[] worse = Arrays.stream(best).map(v -> v - 0.1).toArray();
        double[] close = best.clone();
        close[3] -= 0.05;
        close[7] -= 0.05;
        double[] tie = best.clone();
        List<String> rows = List.of("worse", "best", "close", "tie");
        // Column 1: "worse" is the best there (the roles of best and worse swap).
        ComparisonTable t = ComparisonTable.of(rows, List.of("ndcg@5", "map@10"),
                new double[][][] {{worse, best}, {best, worse}, {close, close}, {tie, worse}});

        ComparisonTable.Cell worseCell = t.cell(0, 0);
        assertTrue(worseCell.worse() && !worseCell.best(), worseCell.toString());
        // Exact null distribution: all 30 differences negative has probability 2^-30 per tail.
        assertEquals(2 / Math.pow(2, n), worseCell.pVsBest(), 1e-20);
        ComparisonTable.Cell closeCell = t.cell(2, 0);
        assertFalse(closeCell.worse(), "below the best but p = 0.5: " + closeCell);
        // Two nonzero tied differences, both negative: P(W+ <= 0) = 1/4 per tail.
        assertEquals(0.5, closeCell.pVsBest(), 1e-12);
        assertTrue(t.cell(1, 0).best() && t.cell(3, 0).best(), "equal means are both bold");
        assertTrue(Double.isNaN(t.cell(1, 0).pVsBest()), "the first best row is the reference");
        assertEquals(1.0, t.cell(3, 0).pVsBest(), "identical values: no nonzero difference");
        assertFalse(t.cell(3, 0).worse());

        assertTrue(t.cell(0, 1).best() && t.cell(1, 1).worse() && t.cell(3, 1).worse(), "best and worse swapped roles");
        assertFalse(t.cell(2, 1).worse(), "still p = 0.5 against the new reference");

        String[] column0 = t.markdown().lines().skip(2).map(l -> cells(l)[1]).toArray(String[]::new);
        assertTrue(column0[0].endsWith(" *") && !column0[0].contains("**"), column0[0]);
        assertTrue(column0[1].startsWith("**") && column0[1].endsWith("**"), column0[1]);
        assertFalse(column0[2].contains("*"), column0[2]);
        assertTrue(column0[3].startsWith("**"), column0[3]);

        String csv = t.csv();
        assertTrue(csv.contains("\nbest,ndcg@5,0.590000,"), csv);
        assertTrue(csv.contains("\nworse,ndcg@5,0.490000,"), csv);
        assertTrue(csv.lines().anyMatch(l -> l.startsWith("best,ndcg@5,") && l.endsWith(",,false")), "no p-value for the reference");
        assertTrue(csv.lines().anyMatch(l -> l.startsWith("worse,ndcg@5,") && l.endsWith(",true")), csv);
        assertEquals(1 + rows.size() * 2, csv.lines().count());
    }

    @Test
    void intervalsAreStudentTAndExcludedQueriesLeaveEveryRow() {
        double[] a = {0.2, 0.4, 0.6, Double.NaN};
        double[] b = {0.1, 0.1, 0.1, 0.9};
        ComparisonTable t = ComparisonTable.of(List.of("a", "b"), List.of("ndcg@1"), new double[][][] {{a}, {b}});
        assertEquals(3, t.cell(1, 0).queries(), "query 4 is excluded for a, so for b too");
        assertEquals(0.1, t.cell(1, 0).mean(), 1e-15);
        // t_{0.975, 2} = 4.302653 (tables), s = 0.2: half-width 4.302653 * 0.2 / sqrt(3); 1e-6 covers the table's rounding.
        assertEquals(4.302653 * 0.2 / Math.sqrt(3), t.cell(0, 0).halfWidth(), 1e-6);
        assertEquals("3", t.queries());
        assertThrows(IllegalArgumentException.class,
                () -> ComparisonTable.of(List.of("a", "b"), List.of("m"), new double[][][] {{a}, {{0.1, 0.2}}}));
        assertThrows(IllegalArgumentException.class, () -> ComparisonTable.of(List.of("a"), List.of("m"),
                new double[][][] {{{Double.NaN}}}));
    }

    @Test
    void severalNetworksOnASingleSplitWithoutFolds() throws Exception {
        Path data = dir.resolve("single");
        CubicData gen = CubicData.create(6, 4);
        String[] names = {"train", "vali", "test"};
        for (int i = 0; i < 3; i++) {
            LetorWriter.write(gen.sample(names[i], 12, 8, 7 + i), data.resolve(names[i] + ".txt"));
        }
        Path out = dir.resolve("nets");
        CliTest.Run r = CliTest.run("compare", "--losses", "ranknet,listnet", "--models", "linear,R5", "--data",
                data.toString(), "--epochs", "2", "--batch-queries", "4", "--normalization", "none", "--metric", "map@5",
                "--metrics", "ndcg@5", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.startsWith("Test queries of the single split of " + data + " (12 in all"), md);
        assertTrue(md.contains("models linear, R5, normalization none") && md.contains("validation map@5"), md);
        List<String> rows = md.lines().filter(l -> l.startsWith("| ")).map(l -> cells(l)[0]).toList();
        assertEquals(List.of("network loss", "linear ranknet", "linear listnet", "R5 ranknet", "R5 listnet"), rows);
        assertTrue(Files.exists(out.resolve("R5").resolve("listnet").resolve("model.json")));
        assertTrue(r.out().lines().anyMatch(l -> l.matches("epoch +1 .*\\d(\\.\\d)?m?s *")), r.out());
        assertEquals(2, CliTest.run("compare", "--losses", "ranknet", "--models", "linear,nonsense", "--data",
                data.toString(), "--out", dir.resolve("x").toString()).code());
        CliTest.Run both = CliTest.run("compare", "--losses", "ranknet", "--models", "linear", "--model", "R5", "--data",
                data.toString(), "--out", dir.resolve("y").toString());
        assertEquals(2, both.code());
        assertEquals(1, both.err().lines().count(), both.err());
        assertEquals(1, CliTest.run("compare", "--losses", "ranknet", "--data", dir.resolve("nothing").toString(), "--out",
                dir.resolve("z").toString()).code(), "no folds and no single split");
    }

    /** Train, validation and test files of small cubic data, as a LightGBM user has them. */
    private Path[] files() throws Exception {
        CubicData gen = CubicData.create(6, 5);
        String[] names = {"train", "vali", "test"};
        int[] queries = {30, 12, 12};
        Path[] files = new Path[3];
        for (int i = 0; i < 3; i++) {
            files[i] = dir.resolve("files").resolve(names[i] + ".txt");
            LetorWriter.write(gen.sample(names[i], queries[i], 8, 20 + i), files[i]);
        }
        return files;
    }

    @Test
    void trainValidAndTestFilesGiveValidationAndTestColumnsAndAModelPerLoss() throws Exception {
        Path[] f = files();
        Path out = dir.resolve("files-out");
        CliTest.Run r = CliTest.run("compare", "--losses", "ranknet,listnet", "--train", f[0].toString(), "--valid",
                f[1].toString(), "--test", f[2].toString(), "--model", "linear", "--epochs", "2", "--batch-queries", "8",
                "--metrics", "ndcg@1,5", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String md = Files.readString(out.resolve("compare.md"));
        assertTrue(md.startsWith("Test queries of " + f[2] + ", training " + f[0] + ", validation " + f[1] + " (12 in all"),
                md);
        List<String> lines = md.lines().filter(l -> l.startsWith("| ")).toList();
        assertEquals(List.of("loss", "valid ndcg@5", "test ndcg@1", "test ndcg@5", "seconds"), List.of(cells(lines.get(0))));
        for (String loss : List.of("ranknet", "listnet")) {
            Path model = out.resolve(loss).resolve("model.json");
            assertTrue(Files.exists(model), loss);
            // The validation column is the model's own validation score at its selected epoch.
            RankingModel m = ModelFile.read(model);
            Dataset va = LetorReader.read(f[1], m.features());
            double valid = Metric.parse("ndcg@5").evaluate(m.scorer().score(va), va.labelBatch(va.allQueries()),
                    MetricConventions.defaults()).mean();
            String cell = cells(lines.stream().filter(l -> cells(l)[0].equals(loss)).findFirst().orElseThrow())[1];
            assertTrue(cell.contains(String.format(java.util.Locale.ROOT, "%.4f", valid)), cell + " vs " + valid);
        }
        assertTrue(r.out().contains("warm-up passes (JIT compilation"), "the warm-up is reported apart: " + md);

        // The warm-up pass changes nothing: compare's ranknet model is train's, byte for byte.
        Path alone = dir.resolve("alone");
        assertEquals(0, CliTest.run("train", "--loss", "ranknet", "--train", f[0].toString(), "--valid", f[1].toString(),
                "--test", f[2].toString(), "--model", "linear", "--epochs", "2", "--batch-queries", "8", "--out",
                alone.toString()).code());
        assertArrayEquals(Files.readAllBytes(alone.resolve("model.json")),
                Files.readAllBytes(out.resolve("ranknet").resolve("model.json")));
    }

    @Test
    void splitValidWritesTheHeldOutQueryIdsAsTrainDoes() throws Exception {
        Path[] f = files();
        Path out = dir.resolve("split-out");
        CliTest.Run r = CliTest.run("compare", "--losses", "ranknet", "--train", f[0].toString(), "--split-valid", "0.3",
                "--test", f[2].toString(), "--model", "linear", "--epochs", "1", "--batch-queries", "8", "--seed", "3",
                "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        List<String> held = Files.readAllLines(out.resolve(HeldOutQueries.FILE));
        assertEquals(9, held.size(), "round(0.3 * 30) queries held out");
        List<String> all = LetorReader.read(f[0]).queries().stream().map(q -> q.qid()).toList();
        assertTrue(all.containsAll(held), held.toString());
        assertEquals(held, all.stream().filter(held::contains).toList(), "one id per line in the file's order");
        assertTrue(Files.readString(out.resolve("compare.md")).contains("validation --split-valid 0.3 of it"));

        Path trained = dir.resolve("train-split");
        CliTest.Run t = CliTest.run("train", "--loss", "ranknet", "--train", f[0].toString(), "--split-valid", "0.3",
                "--model", "linear", "--epochs", "1", "--batch-queries", "8", "--seed", "3", "--out", trained.toString());
        assertEquals(0, t.code(), t.err());
        assertEquals(held, Files.readAllLines(trained.resolve(HeldOutQueries.FILE)), "train holds out the same queries");
        assertTrue(t.out().contains("wrote their ids to " + trained.resolve(HeldOutQueries.FILE)), t.out());
        RankingModel m = ModelFile.read(out.resolve("ranknet").resolve("model.json"));
        assertEquals("validation: 0.3 of the training queries held out, seed 3", m.info().get("data"));
    }

    @Test
    void filesAndDataExcludeEachOtherWithOneLine() throws Exception {
        Path[] f = files();
        String train = f[0].toString();
        String valid = f[1].toString();
        String test = f[2].toString();
        String[][] cases = {
            {"--data", train, "--train", train, "--valid", valid, "--test", test, "not both"},
            {"--train", train, "--valid", valid, "--train and --test go together"},
            {"--train", train, "--test", test, "give --valid FILE or --split-valid FRACTION"},
            {"--train", train, "--valid", valid, "--split-valid", "0.2", "--test", test, "exclude each other"},
            {"--train", train, "--split-valid", "1.5", "--test", test, "--split-valid must be a fraction"},
            {"--train", train, "--valid", valid, "--test", test, "--folds", "2", "--folds applies to --data"},
            {"--valid", valid, "--train and --test go together"},
        };
        Path out = dir.resolve("bad-files");
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("compare", "--losses", "ranknet", "--out", out.toString()));
            args.addAll(Arrays.asList(c).subList(0, c.length - 1));
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains(c[c.length - 1]), args + ": " + r.err());
        }
        assertTrue(Files.notExists(out));
        assertEquals(2, CliTest.run("compare", "--losses", "ranknet", "--out", out.toString()).code(), "no data at all");
    }

    @Test
    void aResumedComparisonCountsTheEarlierInvocationsEpochs() throws Exception {
        Path[] f = files();
        Path out = dir.resolve("resume-out");
        String[] args = {"compare", "--losses", "ranknet", "--train", f[0].toString(), "--valid", f[1].toString(), "--test",
            f[2].toString(), "--model", "linear", "--epochs", "3", "--batch-queries", "8", "--out", out.toString()};
        assertEquals(0, CliTest.run(args).code());
        Path timings = out.resolve("ranknet").resolve(TrainingRun.TIMINGS);
        List<String> first = Files.readAllLines(timings);
        assertEquals(4, first.size(), "a row per epoch: " + first);
        double epochs = first.stream().skip(1).mapToDouble(l -> Double.parseDouble(l.split(",")[1])).sum();

        // The same comparison again: every run is finished in its checkpoint, nothing is trained.
        CliTest.Run again = CliTest.run(args);
        assertEquals(0, again.code(), again.err());
        // Epoch and seconds as written; documents/s is recomputed from the 6-decimal seconds, so its last digit may move.
        assertEquals(epochAndSeconds(first), epochAndSeconds(Files.readAllLines(timings)),
                "the earlier invocation's epochs keep their times");
        String[] row = Files.readAllLines(out.resolve("compare.csv")).get(1).split(",", -1);
        assertTrue(Double.parseDouble(row[6]) >= epochs, "seconds " + row[6] + " count the 3 earlier epochs (" + epochs
                + " s)");
    }

    private static List<String> epochAndSeconds(List<String> timings) {
        return timings.stream().map(l -> l.substring(0, l.lastIndexOf(','))).toList();
    }

    private static String[] cells(String tableLine) {
        String inner = tableLine.strip();
        return Arrays.stream(inner.substring(1, inner.length() - 1).split("\\|")).map(String::strip).toArray(String[]::new);
    }

    private static String[] concat(String first, String[] rest) {
        String[] out = new String[rest.length + 1];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    private static String line(String[] fields) {
        return String.join(",", fields);
    }
}
