package rankgrad.cli;

import java.io.PrintWriter;
import java.util.Locale;
import rankgrad.ltr.train.TrainingConfig;

/**
 * Training settings fitted to a small training set (docs/cli.md, "Small data"). The defaults
 * (64 queries per batch, patience 20 epochs) assume hundreds of training queries; with fewer queries
 * than {@value #MIN_BATCHES} batches an epoch is one to three optimizer steps, and patience 20 means
 * 20 to 60 steps: a linear model has hardly moved when it stops, and runs with different losses stop
 * with nearly their initial, hence identical, rankings.
 *
 * <p>Rule, applied only when n &lt; {@value #MIN_BATCHES} x batch for n training queries (so
 * a set of 4,000 queries, the demo's, keeps every setting): the batch becomes ceil(n /
 * {@value #MIN_BATCHES}) queries, {@value #MIN_BATCHES} steps per epoch (or fewer on a handful of
 * queries), unless {@code --batch-queries} was given. Rounded up, so that no epoch ends on a
 * batch of one query: with floor(161 / 4) = 40 the fifth batch held 1 query, and a query of one
 * document stopped a batch-norm network ("batch norm in training mode needs at least 2 rows") on
 * LightGBM's example set; a nonzero patience is raised to at least
 * ceil({@value #MIN_PATIENCE_STEPS} / steps per epoch) epochs, so early stopping waits for that
 * many optimizer steps without improvement. One warning line says what changed (none when nothing
 * did: an explicit batch with a patience already long enough in steps).
 */
final class DataSizeFit {
    /** Fewest batches per epoch the defaults assume. */
    static final int MIN_BATCHES = 4;
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
            err.printf(Locale.ROOT, "rankgrad: warning: %d training queries are fewer than %d batches of %d: %s, %d steps"
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
