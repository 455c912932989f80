package rankgrad.ltr.train.gradientfree;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.RankingModel;

/**
 * Trains a model by stochastic approximation of a rank metric itself (Yue &amp; Burges 2007): the
 * model's parameters are one flat vector theta, the objective is L(theta) = -mean metric over the
 * training queries (evaluated with the network in evaluation mode), and a
 * {@link GradientFreeOptimizer} (SPSA:F or FDSA) improves it using evaluations only. The
 * parameters with the best validation value are kept.
 *
 * <p>Meant for the linear model and small networks: each evaluation scores the whole training set.
 */
public final class GradientFreeTrainer {

    /**
     * One point of the learning curve.
     *
     * @param iteration iterations done
     * @param evaluations objective evaluations spent so far
     * @param train the metric on the training set
     * @param validation the metric on the validation set
     */
    public record Point(int iteration, long evaluations, double train, double validation) {
    }

    private final GradientFreeOptimizer optimizer;
    private final int iterations;
    private final Metric metric;
    private final int reportEvery;
    private final MetricConventions conventions;

    private GradientFreeTrainer(GradientFreeOptimizer optimizer, int iterations, Metric metric, int reportEvery,
            MetricConventions conventions) {
        this.optimizer = optimizer;
        this.iterations = iterations;
        this.metric = metric;
        this.reportEvery = reportEvery;
        this.conventions = conventions;
    }

    /** {@code iterations} iterations of {@code optimizer} on {@code metric}, validating every {@code reportEvery}. */
    public static GradientFreeTrainer of(GradientFreeOptimizer optimizer, int iterations, Metric metric, int reportEvery) {
        if (iterations < 1 || reportEvery < 1) {
            throw new IllegalArgumentException("iterations and reportEvery must be >= 1");
        }
        return new GradientFreeTrainer(optimizer, iterations, metric, reportEvery, MetricConventions.defaults());
    }

    /** {@code iterations} iterations of {@code optimizer} on {@code metric}, validating at 20 evenly spaced points. */
    public static GradientFreeTrainer of(GradientFreeOptimizer optimizer, int iterations, Metric metric) {
        return of(optimizer, iterations, metric, Math.max(1, iterations / 20));
    }

    /** The same trainer computing the metric with {@code c} (ties, queries without relevant documents, ERR's ymax). */
    public GradientFreeTrainer withConventions(MetricConventions c) {
        return new GradientFreeTrainer(optimizer, iterations, metric, reportEvery, c);
    }

    /**
     * Trains in place; the model ends with the best-validating parameters. Returns the learning curve.
     *
     * @throws rankgrad.ltr.model.NonFiniteScoreException when parameters make a score overflow
     */
    public List<Point> fit(RankingModel model, Dataset train, Dataset valid) {
        Dataset tr = model.normalize(train);
        Dataset va = model.normalize(valid);
        QueryBatch trLabels = tr.labelBatch(tr.allQueries());
        QueryBatch vaLabels = va.labelBatch(va.allQueries());
        ParameterVector params = ParameterVector.of(model);
        double[] theta = params.get();
        Objective objective = th -> -evaluate(model, params, th, tr, trLabels);
        List<Point> curve = new ArrayList<>();
        long evaluations = 0;
        double bestValid = evaluate(model, params, theta, va, vaLabels);
        double[] best = theta.clone();
        curve.add(new Point(0, 0, evaluate(model, params, theta, tr, trLabels), bestValid));
        for (int t = 0; t < iterations; t++) {
            evaluations += optimizer.iterate(theta, objective, t);
            if ((t + 1) % reportEvery == 0 || t + 1 == iterations) {
                double v = evaluate(model, params, theta, va, vaLabels);
                curve.add(new Point(t + 1, evaluations, evaluate(model, params, theta, tr, trLabels), v));
                if (v > bestValid) {
                    bestValid = v;
                    best = theta.clone();
                }
            }
        }
        params.set(best);
        model.info().put("loss", optimizer.name());
        model.info().put("validation", Map.of(metric.toString(), bestValid));
        return curve;
    }

    private double evaluate(RankingModel model, ParameterVector params, double[] theta, Dataset normalized,
            QueryBatch labels) {
        params.set(theta);
        return metric.evaluate(model.scorer().scoreNormalized(normalized), labels, conventions).mean();
    }
}
