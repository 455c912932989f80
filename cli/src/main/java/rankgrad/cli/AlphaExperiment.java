package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.ApproxNdcgLoss;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;

/**
 * Bruch et al. 2019, Sec. 3.3 and Fig. 2, on generated cubic data (the Web30K data is not
 * available): ApproxNDCG with sigmoid steepness alpha in {0.1, 1, 5, 10, 20, 40, 100} (Bruch
 * Eq. 6, pi(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i))) trains the same network with a single
 * hidden layer (64 ReLU units, batch normalization over the input and before the ReLU, linear
 * output; Bruch Sec. 3.2: batch size 128, learning rate 0.005, no regularization), selected on
 * validation NDCG@5; reported are validation NDCG@1, 5, 10.
 *
 * <p>Every alpha starts from the same weights and sees the same batches, so per-query differences
 * are paired: a Wilcoxon signed-rank test on validation NDCG@5 against the best alpha stands in
 * for the paper's significance statement.
 */
final class AlphaExperiment {
    static final double[] ALPHAS = {0.1, 1, 5, 10, 20, 40, 100};
    static final List<Metric> METRICS = List.of(Metric.parse("ndcg@1"), Metric.parse("ndcg@5"), Metric.parse("ndcg@10"));
    private static final int SELECTION = 1;
    private static final int HIDDEN = 64;
    private static final int DOCS = 50;

    /**
     * The experiment's size.
     *
     * @param trainQueries training queries of 50 documents
     * @param validQueries validation queries of 50 documents
     * @param epochs epochs per alpha (the best validation epoch is kept)
     * @param seed seed of the data, the weights and the batch order
     */
    record Settings(int trainQueries, int validQueries, int epochs, long seed) {
    }

    /**
     * One alpha's result.
     *
     * @param alpha the sigmoid steepness
     * @param validation mean validation NDCG@1, 5, 10 of the selected epoch
     * @param perQuerySelection validation NDCG@5 per query (NaN for queries without relevant documents)
     * @param bestEpoch the selected epoch
     * @param seconds training time
     */
    record Row(double alpha, double[] validation, double[] perQuerySelection, int bestEpoch, double seconds) {
    }

    private AlphaExperiment() {
    }

    /** Trains one network per alpha, logging one line each to {@code log}. */
    static List<Row> run(Settings s, PrintWriter log) throws IOException {
        CubicData gen = CubicData.paper(s.seed());
        Dataset train = gen.sample("cubic train", s.trainQueries(), DOCS, s.seed() * 31 + 1);
        Dataset valid = gen.sample("cubic valid", s.validQueries(), DOCS, s.seed() * 31 + 2);
        TrainingConfig config = TrainingConfig.defaults().withEpochs(s.epochs()).withLearningRate(0.005).withL2(0)
                .withBatchQueries(128).withSeed(s.seed()).withPatience(0).withSelection(METRICS.get(SELECTION));
        log.printf(Locale.ROOT, "ApproxNDCG, %d-%d-1 network (batch norm, ReLU), %d train / %d validation queries of %d"
                + " documents, %d epochs, Adam lr %.3g, batch %d queries%n", train.features(), HIDDEN,
                s.trainQueries(), s.validQueries(), DOCS, s.epochs(), config.learningRate(), config.batchQueries());
        List<Row> rows = new ArrayList<>();
        for (double alpha : ALPHAS) {
            RankingModel model = RankingModel.of("approx-ndcg-1x" + HIDDEN, network(train.features(), s.seed()),
                    new Normalization.None());
            long started = System.nanoTime();
            TrainingResult r = Trainer.of(config).fit(model, ApproxNdcgLoss.of(alpha), train, valid, new TrainingListener() {
            });
            double seconds = (System.nanoTime() - started) / 1e9;
            float[] scores = model.scorer().score(valid);
            double[] means = new double[METRICS.size()];
            for (int i = 0; i < means.length; i++) {
                means[i] = METRICS.get(i).evaluate(scores, valid.labelBatch(valid.allQueries()), MetricConventions.defaults())
                        .mean();
            }
            double[] perQuery = METRICS.get(SELECTION).perQuery(scores, valid.labelBatch(valid.allQueries()),
                    MetricConventions.defaults());
            rows.add(new Row(alpha, means, perQuery, r.bestEpoch(), seconds));
            log.printf(Locale.ROOT, "alpha %5s  valid ndcg@1 %.4f  ndcg@5 %.4f  ndcg@10 %.4f  (epoch %d, %.1fs)%n",
                    label(alpha), means[0], means[1], means[2], r.bestEpoch(), seconds);
            log.flush();
        }
        return rows;
    }

    /** Bruch Sec. 3.2-3.3: one hidden layer, batch norm over the input and between layers, ReLU, linear output. */
    static Mlp network(int features, long seed) {
        return Mlp.builder(features).hidden(HIDDEN).activation(Activation.relu()).batchNorm(true).inputBatchNorm(true)
                .lastActivated(false).output(1).seed(seed).build();
    }

    /** The row with the highest validation NDCG@5 (the paper's selection). */
    static Row best(List<Row> rows) {
        Row best = rows.get(0);
        for (Row r : rows) {
            if (r.validation()[SELECTION] > best.validation()[SELECTION]) {
                best = r;
            }
        }
        return best;
    }

    /**
     * A Markdown table, one row per alpha: validation NDCG@1, 5, 10 (the best of each column in
     * bold), the selected epoch and the p-value against the alpha with the best NDCG@5.
     */
    static String table(List<Row> rows) {
        Row best = best(rows);
        StringBuilder sb = new StringBuilder("| alpha | valid NDCG@1 | valid NDCG@5 | valid NDCG@10 | best epoch |"
                + " p vs best (NDCG@5, Wilcoxon) |\n|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            sb.append("| ").append(label(r.alpha())).append(" |");
            for (int c = 0; c < METRICS.size(); c++) {
                final int col = c;
                double top = rows.stream().mapToDouble(x -> x.validation()[col]).max().orElseThrow();
                String v = String.format(Locale.ROOT, "%.4f", r.validation()[c]);
                sb.append(' ').append(r.validation()[c] == top ? "**" + v + "**" : v).append(" |");
            }
            sb.append(' ').append(r.bestEpoch()).append(" | ");
            String p = r == best ? "best"
                    : PerQueryTest.format(PerQueryTest.wilcoxon(r.perQuerySelection(), best.perQuerySelection()));
            sb.append(p).append(" |\n");
        }
        return sb.toString();
    }

    /** NDCG@1, 5, 10 against alpha, log x axis. */
    static void plot(List<Row> rows, String subtitle, Path png) throws IOException {
        XYChart chart = Plots.lineChart("ApproxNDCG: validation NDCG by sigmoid steepness alpha (" + subtitle + ")",
                "alpha (log scale)", "validation NDCG");
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisDecimalPattern("0.#");
        double[] x = rows.stream().mapToDouble(Row::alpha).toArray();
        for (int c = 0; c < METRICS.size(); c++) {
            final int col = c;
            XYSeries s = chart.addSeries("NDCG@" + METRICS.get(c).cutoff(), x,
                    rows.stream().mapToDouble(r -> r.validation()[col]).toArray());
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        Plots.save(chart, png);
    }

    static String label(double alpha) {
        return alpha == Math.rint(alpha) ? Long.toString((long) alpha) : Double.toString(alpha);
    }
}
