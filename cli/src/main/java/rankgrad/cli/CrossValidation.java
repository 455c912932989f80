package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.QuerySplit;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingResult;

/**
 * {@code train --folds K}: K-fold cross-validation on one file, by query. The queries are shuffled
 * with the seed and dealt into K parts ({@link QuerySplit#parts}); fold k tests on part k, selects
 * the epoch on part k + 1 (cyclically) and trains on the other K - 2, as the LETOR Fold1..5 layout
 * does. Each fold is a full training run in {@code OUT/Foldk/} (model.json, metrics.csv,
 * curves.png, checkpoint.json: a killed cross-validation resumes fold by fold).
 *
 * <p>Summary, in {@code OUT/cv.csv} and {@code OUT/cv.md}: each fold's test value of the selection
 * metric at its best epoch, the mean and sample standard deviation over folds, and the mean over
 * the pooled test queries (every query of the file is tested exactly once).
 */
final class CrossValidation {
    private CrossValidation() {
    }

    static int run(TrainCommand c, FeatureSubset subset) throws IOException {
        PrintWriter o = c.spec.commandLine().getOut();
        Dataset all = LetorReader.read(c.train);
        c.featureOption.select(subset, all);
        int k = c.folds;
        long seed = c.training.seed;
        List<Dataset> parts = QuerySplit.parts(all, k, seed);
        TrainingConfig config = c.training.config();
        Metric metric = config.selection();
        StringBuilder csv = new StringBuilder("fold,train_queries,valid_queries,test_queries,best_epoch,test_" + metric
                + "\n");
        double[] perFold = new double[k];
        List<Double> pooled = new ArrayList<>();
        boolean diverged = false;
        for (int i = 0; i < k; i++) {
            QuerySplit.Fold fold = QuerySplit.fold(parts, i);
            String split = String.format(Locale.ROOT, "fold %d of %d by query, seed %d (validation: part %d)", i + 1, k, seed,
                    (i + 1) % k + 1);
            RankingModel m = c.model(subset, fold.train(), split);
            o.printf(Locale.ROOT, "%n== fold %d of %d: %d train / %d valid / %d test queries%n", i + 1, k, fold.train().size(),
                    fold.valid().size(), fold.test().size());
            Path dir = OutputFolder.subfolder(c.out, "Fold" + (i + 1));
            TrainingResult r = TrainingRun.execute(m, c.loss, config, fold.train(), fold.valid(), null, dir,
                    new Progress(o, System.console() != null, config.epochs(), metric.toString()), c.training.fresh).result();
            o.println(r.message());
            diverged |= r.stop() == TrainingResult.Stop.DIVERGED;
            Dataset test = fold.test();
            QueryBatch batch = test.labelBatch(test.allQueries());
            double[] values = metric.perQuery(m.scorer().score(test), batch, config.conventions());
            perFold[i] = mean(values);
            for (double v : values) {
                pooled.add(v);
            }
            csv.append(String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%.6f%n", i + 1, fold.train().size(), fold.valid().size(),
                    test.size(), r.bestEpoch(), perFold[i]));
        }
        double foldMean = 0;
        for (double v : perFold) {
            foldMean += v / k;
        }
        double ss = 0;
        for (double v : perFold) {
            ss += (v - foldMean) * (v - foldMean);
        }
        double std = Math.sqrt(ss / (k - 1));
        double pooledMean = mean(pooled.stream().mapToDouble(Double::doubleValue).toArray());
        csv.append(String.format(Locale.ROOT, "mean,,,,,%.6f%nstd,,,,,%.6f%npooled,,,%d,,%.6f%n", foldMean, std, all.size(),
                pooledMean));
        String report = String.format(Locale.ROOT, "%d-fold cross-validation of %s on %s (%d queries, split by query with"
                + " seed %d): test %s %.4f +- %.4f over folds (mean +- sample std), %.4f over the %d pooled test queries%n",
                k, c.loss, c.train, all.size(), seed, metric, foldMean, std, pooledMean, all.size());
        AtomicWrite.writeString(c.out.resolve("cv.csv"), csv.toString());
        AtomicWrite.writeString(c.out.resolve("cv.md"), report);
        o.printf("%n%swrote %s, %s and Fold1..Fold%d/ (model.json, metrics.csv, curves.png)%n", report, c.out.resolve("cv.csv"),
                c.out.resolve("cv.md"), k);
        return diverged ? 1 : 0;
    }

    /** The mean of the defined values (NaN marks a query the metric's conventions exclude). */
    private static double mean(double[] values) {
        double sum = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
