package rankgrad.cli;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.LambdaRankLoss;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;
import rankgrad.ltr.train.gradientfree.Fdsa;
import rankgrad.ltr.train.gradientfree.GradientFreeOptimizer;
import rankgrad.ltr.train.gradientfree.GradientFreeTrainer;
import rankgrad.ltr.train.gradientfree.LossObjective;
import rankgrad.ltr.train.gradientfree.Spsa;
import rankgrad.ltr.train.gradientfree.SpsaGains;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

/**
 * Yue &amp; Burges 2007 on generated cubic data (their Web data is not available), with a linear
 * model s = x w + b over query-z-scored features:
 * <ol>
 *   <li>Sec. 5.1, Fig. 1: RankNet's pairwise cross entropy on the training set, L(theta), minimized
 *       by SPSA:2, SPSA:4, SPSA:8 and FDSA from the same start, using evaluations of L only, on
 *       the same evaluation budget; the curve is L against evaluations spent.
 *   <li>Sec. 5.2, Table 1: SPSA:4 on mean training NDCG@10 itself (selected on validation NDCG@10)
 *       against LambdaRank trained by gradient (Adam, selected on validation NDCG@10); NDCG@10 on
 *       train, validation and test.
 * </ol>
 */
final class SpsaExperiment {
    /** Part 1 gains, the same for every method: a_t = 5e-3 / (t + 1 + 100)^0.602, c_t = 0.01 / (t + 1)^0.101. */
    static final SpsaGains OBJECTIVE_GAINS = SpsaGains.spall(5e-3, 0.01, 100);
    /** Part 2 gains: a_t = 2 / (t + 1 + 50)^0.602, c_t = 0.05 / (t + 1)^0.101. */
    static final SpsaGains NDCG_GAINS = SpsaGains.spall(2.0, 0.05, 50);
    static final List<Integer> SPSA_EVALUATIONS = List.of(2, 4, 8);
    static final Metric NDCG10 = Metric.parse("ndcg@10");
    private static final int DOCS = 50;
    private static final int POINTS = 100;
    private static final double LAMBDARANK_LR = 0.01;
    private static final int LAMBDARANK_BATCH = 16;
    private static final Color TRAIN_COLOR = new Color(0x1f77b4);
    private static final Color VALID_COLOR = new Color(0xd62728);

    /**
     * The experiment's size.
     *
     * @param queries train, validation, test queries of 50 documents
     * @param evaluations part 1's evaluation budget per method
     * @param iterations part 2's SPSA:4 iterations (4 evaluations each)
     * @param epochs part 2's LambdaRank epochs
     * @param seed seed of the data, the weights and the perturbations
     */
    record Settings(int[] queries, int evaluations, int iterations, int epochs, long seed) {
    }

    /**
     * Part 1's curve of one method.
     *
     * @param method "spsa:F" or "fdsa"
     * @param perIteration evaluations per iteration
     * @param evaluations evaluations spent at each point (0 first)
     * @param objective L(theta) at each point
     */
    record Curve(String method, int perIteration, List<Long> evaluations, List<Double> objective) {
        double start() {
            return objective.get(0);
        }

        double end() {
            return objective.get(objective.size() - 1);
        }

        long spent() {
            return evaluations.get(evaluations.size() - 1);
        }
    }

    /**
     * Part 2's row of one method.
     *
     * @param method the method
     * @param train NDCG@10 on the training set
     * @param valid NDCG@10 on the validation set
     * @param test NDCG@10 on the test set
     * @param budget what it spent ("4000 evaluations", "30 epochs")
     * @param testPerQuery NDCG@10 of each test query (NaN for queries without relevant documents)
     */
    record Row(String method, double train, double valid, double test, String budget, double[] testPerQuery) {
    }

    /**
     * Part 2's result.
     *
     * @param rows LambdaRank, then SPSA:4
     * @param spsaCurve SPSA:4's learning curve
     * @param testP two-sided Wilcoxon signed-rank p-value of the per-query test NDCG@10 difference
     */
    record Comparison(List<Row> rows, List<GradientFreeTrainer.Point> spsaCurve, double testP) {
    }

    private SpsaExperiment() {
    }

    /** The three data sets, from one polynomial. */
    static Dataset[] data(Settings s) {
        CubicData gen = CubicData.paper(s.seed());
        String[] names = {"cubic train", "cubic valid", "cubic test"};
        Dataset[] out = new Dataset[3];
        for (int i = 0; i < 3; i++) {
            out[i] = gen.sample(names[i], s.queries()[i], DOCS, s.seed() * 31 + i + 1);
        }
        return out;
    }

    static RankingModel linear(int features, long seed) {
        return RankingModel.create("linear", features, new Normalization.QueryZScore(), seed);
    }

    /** Part 1: one curve per method, each with {@code s.evaluations()} evaluations at most. */
    static List<Curve> objectiveCurves(Settings s, Dataset train, PrintWriter log) {
        RankingModel model = linear(train.features(), s.seed());
        LossObjective objective = LossObjective.of(model, RankNetLoss.create(), model.normalize(train));
        double[] start = objective.parameters().get();
        List<GradientFreeOptimizer> methods = new ArrayList<>();
        for (int f : SPSA_EVALUATIONS) {
            methods.add(Spsa.of(f, OBJECTIVE_GAINS, s.seed() + f));
        }
        methods.add(Fdsa.of(OBJECTIVE_GAINS));
        List<Curve> curves = new ArrayList<>();
        for (GradientFreeOptimizer m : methods) {
            long started = System.nanoTime();
            Curve c = minimize(m, objective, start.clone(), s.evaluations());
            curves.add(c);
            log.printf(Locale.ROOT, "%-7s %3d evaluations/iteration  %5d iterations  RankNet objective %.2f -> %.2f  (%.1fs)%n",
                    m.name(), c.perIteration(), c.spent() / c.perIteration(), c.start(), c.end(), seconds(started));
            log.flush();
        }
        return curves;
    }

    /**
     * Runs {@code optimizer} from {@code theta} while the budget allows another iteration,
     * recording L after about every budget/100 evaluations (the recording evaluations are not
     * counted: they measure, they do not optimize).
     */
    static Curve minimize(GradientFreeOptimizer optimizer, LossObjective objective, double[] theta, int budget) {
        int per = optimizer.evaluationsPerIteration(theta.length);
        long every = Math.max(1, budget / POINTS);
        List<Long> evaluations = new ArrayList<>(List.of(0L));
        List<Double> values = new ArrayList<>(List.of(objective.value(theta)));
        long spent = 0;
        long nextRecord = every;
        for (long t = 0; spent + per <= budget; t++) {
            spent += optimizer.iterate(theta, objective, t);
            if (spent >= nextRecord || spent + per > budget) {
                evaluations.add(spent);
                values.add(objective.value(theta));
                nextRecord = spent + every;
            }
        }
        return new Curve(optimizer.name(), per, evaluations, values);
    }

    /** Part 2: LambdaRank and SPSA:4 on NDCG@10, both linear from the same start. */
    static Comparison ndcgComparison(Settings s, Dataset[] data, PrintWriter log) throws IOException {
        Dataset train = data[0];
        Dataset valid = data[1];
        List<Row> rows = new ArrayList<>();
        long started = System.nanoTime();
        RankingModel lambda = linear(train.features(), s.seed());
        TrainingConfig config = TrainingConfig.defaults().withEpochs(s.epochs()).withLearningRate(LAMBDARANK_LR).withL2(0)
                .withBatchQueries(LAMBDARANK_BATCH).withSeed(s.seed()).withPatience(0).withSelection(NDCG10);
        int best = Trainer.of(config).fit(lambda, LambdaRankLoss.create(s.seed()), train, valid, new TrainingListener() {
        }).bestEpoch();
        rows.add(row("LambdaRank", lambda, data, "best of " + s.epochs() + " epochs (" + best + ")"));
        log.printf(Locale.ROOT, "LambdaRank, Adam lr %.3g, batch %d queries, %d epochs: best validation epoch %d  (%.1fs)%n",
                LAMBDARANK_LR, LAMBDARANK_BATCH, s.epochs(), best, seconds(started));
        log.flush();
        started = System.nanoTime();
        RankingModel spsa = linear(train.features(), s.seed());
        List<GradientFreeTrainer.Point> curve = GradientFreeTrainer.of(Spsa.of(4, NDCG_GAINS, s.seed()), s.iterations(), NDCG10,
                Math.max(1, s.iterations() / POINTS)).fit(spsa, train, valid);
        rows.add(row("SPSA:4", spsa, data, curve.get(curve.size() - 1).evaluations() + " evaluations"));
        log.printf(Locale.ROOT, "SPSA:4 on NDCG@10, %d iterations: train %.4f -> %.4f  (%.1fs)%n", s.iterations(),
                curve.get(0).train(), curve.get(curve.size() - 1).train(), seconds(started));
        log.flush();
        return new Comparison(rows, curve, PerQueryTest.wilcoxon(rows.get(0).testPerQuery(), rows.get(1).testPerQuery()));
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static Row row(String method, RankingModel m, Dataset[] data, String budget) {
        Scorer scorer = m.scorer();
        return new Row(method, ndcg10(scorer, data[0]), ndcg10(scorer, data[1]), ndcg10(scorer, data[2]), budget,
                NDCG10.perQuery(scorer.score(data[2]), data[2].labelBatch(data[2].allQueries()), MetricConventions.defaults()));
    }

    private static double ndcg10(Scorer scorer, Dataset raw) {
        return NDCG10.evaluate(scorer.score(raw), raw.labelBatch(raw.allQueries()), MetricConventions.defaults()).mean();
    }

    /** Part 1's table: objective at the start and at the end of the budget, per method. */
    static String objectiveTable(List<Curve> curves) {
        StringBuilder sb = new StringBuilder("| method | evaluations/iteration | iterations | evaluations | RankNet objective,"
                + " start | end |\n|---|---:|---:|---:|---:|---:|\n");
        for (Curve c : curves) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.2f | %.2f |%n", c.method().toUpperCase(Locale.ROOT),
                    c.perIteration(), c.spent() / c.perIteration(), c.spent(), c.start(), c.end()));
        }
        return sb.toString();
    }

    /** Part 2's table with Yue &amp; Burges' Table 1 (Web data, linear nets) beside. */
    static String ndcgTable(List<Row> rows) {
        StringBuilder sb = new StringBuilder("| method | train NDCG@10 | valid NDCG@10 | test NDCG@10 | budget |"
                + " paper train | paper valid | paper test |\n|---|---:|---:|---:|---|---:|---:|---:|\n");
        for (Row r : rows) {
            String paper = r.method().equals("LambdaRank") ? "0.721 | 0.713 | 0.707" : "0.690 | 0.682 | 0.677";
            sb.append(String.format(Locale.ROOT, "| %s | %.4f | %.4f | %.4f | %s | %s |%n", r.method(), r.train(), r.valid(),
                    r.test(), r.budget(), paper));
        }
        return sb.toString();
    }

    /** Part 1's figure: objective against evaluations, one line per method. */
    static void plotObjective(List<Curve> curves, String subtitle, Path png) throws IOException {
        XYChart chart = Plots.lineChart("RankNet cross entropy by function evaluations (" + subtitle + ")",
                "objective evaluations", "RankNet pairwise cross entropy (training set)");
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        for (Curve c : curves) {
            XYSeries s = chart.addSeries(c.method().toUpperCase(Locale.ROOT), c.evaluations(), c.objective());
            s.setMarker(SeriesMarkers.NONE);
        }
        Plots.save(chart, png);
    }

    /**
     * Part 2's figure: SPSA:4's NDCG@10 on train and validation against evaluations, with
     * LambdaRank's values as dashed horizontal lines for reference.
     */
    static void plotNdcg(Comparison c, String subtitle, Path png) throws IOException {
        XYChart chart = Plots.lineChart("SPSA:4 on NDCG@10 against LambdaRank (" + subtitle + ")", "objective evaluations",
                "NDCG@10");
        List<Long> x = c.spsaCurve().stream().map(GradientFreeTrainer.Point::evaluations).toList();
        XYSeries tr = chart.addSeries("SPSA:4 train", x, c.spsaCurve().stream().map(GradientFreeTrainer.Point::train).toList());
        tr.setMarker(SeriesMarkers.NONE);
        tr.setLineColor(TRAIN_COLOR);
        XYSeries va = chart.addSeries("SPSA:4 validation", x,
                c.spsaCurve().stream().map(GradientFreeTrainer.Point::validation).toList());
        va.setMarker(SeriesMarkers.NONE);
        va.setLineColor(VALID_COLOR);
        Row lambda = c.rows().stream().filter(r -> r.method().equals("LambdaRank")).findFirst().orElseThrow();
        List<Long> ends = List.of(x.get(0), x.get(x.size() - 1));
        XYSeries lt = chart.addSeries("LambdaRank train", ends, List.of(lambda.train(), lambda.train()));
        XYSeries lv = chart.addSeries("LambdaRank validation", ends, List.of(lambda.valid(), lambda.valid()));
        for (XYSeries s : List.of(lt, lv)) {
            s.setMarker(SeriesMarkers.NONE);
            s.setLineStyle(SeriesLines.DASH_DASH);
        }
        lt.setLineColor(TRAIN_COLOR);
        lv.setLineColor(VALID_COLOR);
        Plots.save(chart, png);
    }
}
