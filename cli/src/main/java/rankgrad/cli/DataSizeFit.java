package rankgrad.cli;

import java.io.PrintWriter;
import java.util.Locale;
import rankgrad.ltr.train.TrainingConfig;

/**
 * Training settings fitted to a small training set (docs/cli.md, "Small training sets"). The
 * defaults (64 queries per batch, patience 20 epochs) assume hundreds of training queries; with
 * fewer queries than one batch an epoch is one optimizer step, and patience 20 means 20 steps: a
 * linear model has hardly moved when it stops, and runs with different losses stop with nearly
 * their initial, hence identical, rankings.
 *
 * <p>Rule, applied only when n &lt; {@value #MIN_BATCHES} x batch for n training queries (so
 * LightGBM's 161-query example split and the demo's 4,000 queries keep every setting): the batch
 * becomes ceil(n / {@value #MIN_BATCHES}) queries unless {@code --batch-queries} was given, and a
 * nonzero patience is raised to at least ceil({@value #MIN_PATIENCE_STEPS} / steps per epoch)
 * epochs, so early stopping waits for that many optimizer steps without improvement. One warning
 * line says what changed (none when nothing did).
 *
 * <p>The thresholds were chosen on public data (LightGBM's example set, docs/cli.md): with 40 or
 * 161 training queries, batches of a quarter, an eighth or a sixteenth of the queries were no
 * better on validation than one batch of all of them (at 40 queries worse for each of 3 seeds:
 * NDCG@5 0.669 and 0.660 against 0.688), while patience counted in steps is what keeps a small
 * set from stopping after a few steps. So the batch is never larger than the training set and not
 * shrunk further ({@value #MIN_BATCHES} batch per epoch); rounding up keeps a set from ending an
 * epoch on a one-query batch should the fraction be raised (a one-document query stops a
 * batch-norm network).
 */
final class DataSizeFit {
    /** Fewest batches per epoch: the batch is at most the training set (measured: see above). */
    static final int MIN_BATCHES = 1;
    /** Fewest optimizer steps without improvement before early stopping on a small set. */
    static final int MIN_PATIENCE_STEPS = 50;

    private DataSizeFit() {
    }

    /** Whether {@code trainQueries} is small for {@code config}'s batch. */
    static boolean small(TrainingConfig config, int trainQueries) {
        return trainQueries < (long) MIN_BATCHES * config.batchQueries();
    }

    /**
     * {@code config} fitted to {@code trainQueries} training queries; the warning, when the set is
     * small, goes to {@code err} (null: none).
     */
    static TrainingConfig fit(TrainingConfig config, int trainQueries, boolean batchGiven, PrintWriter err) {
        if (!small(config, trainQueries)) {
            return config;
        }
        int batch = batchGiven ? config.batchQueries() : Math.max(1, (trainQueries + MIN_BATCHES - 1) / MIN_BATCHES);
        int steps = (trainQueries + batch - 1) / batch;
        int patience = config.patience() == 0 ? 0
                : Math.max(config.patience(), (MIN_PATIENCE_STEPS + steps - 1) / steps);
        if (err != null && (batch != config.batchQueries() || patience != config.patience())) {
            err.printf(Locale.ROOT, "rankgrad: warning: %d training queries are fewer than %d batch(es) of %d: %s, %d step(s)"
                    + " per epoch (%d in %d epochs)%s%n", trainQueries, MIN_BATCHES, config.batchQueries(),
                    batch == config.batchQueries() ? "batches of " + batch + " queries as --batch-queries asks"
                            : "batches of " + batch + " queries instead (--batch-queries sets it)",
                    steps, (long) steps * config.epochs(), config.epochs(),
                    patience == config.patience() ? "" : "; early stopping after " + patience + " epochs (" + (long) patience
                            * steps + " steps) without improvement instead of " + config.patience());
            err.flush();
        }
        return config.withBatchQueries(batch).withPatience(patience);
    }
}
