package rankgrad.cli;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongFunction;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

/**
 * {@code compare}'s warm-up pass, kept out of the seconds column: before the first timed run of
 * each (network, loss), a throwaway model of that network is trained with that loss for one short
 * epoch ({@value #BATCHES} batches of the fold's training queries, validated on one batch of its
 * validation queries), so that the JIT compiles the kernels the run uses before the clock starts.
 * Without it the first row of a comparison carried the compilation: measured on the 2-core machine
 * (docs/cli.md, "Compare losses across folds"), the first row's first epoch took 10-40 times the
 * later epochs.
 *
 * <p>It changes no result: the throwaway model, loss and optimizer are new objects, no checkpoint
 * is written, and every random choice of a run is drawn from the run's own seed.
 */
final class WarmUp {
    /** Training batches of the warm-up epoch: enough iterations of the kernels' loops for the JIT to compile them. */
    static final int BATCHES = 8;

    private final Set<String> done = new HashSet<>();
    private double seconds;

    /** Whether the (network, loss) pair has not been warmed up yet in this invocation. */
    boolean pending(String architecture, String loss) {
        return !done.contains(architecture + "\u0000" + loss);
    }

    /** Trains a throwaway model of {@code create} with {@code loss} for one short epoch, and records its wall time. */
    void run(LongFunction<RankingModel> create, String architecture, String loss, TrainingConfig config, Dataset train,
            Dataset valid) throws IOException {
        done.add(architecture + "\u0000" + loss);
        long start = System.nanoTime();
        Dataset tr = head(train, BATCHES * config.batchQueries());
        Dataset va = head(valid, config.batchQueries());
        Trainer.of(config.withEpochs(1).withCheckpoint(null)).fit(create.apply(config.seed()), Losses.parse(loss,
                config.seed()), tr, va, TrainingListener.none());
        seconds += (System.nanoTime() - start) / 1e9;
    }

    /** The report's words on the warm-up, e.g. "; warm-up passes (JIT compilation) excluded: 31.2 s". */
    String describe() {
        return done.isEmpty() ? "" : String.format(Locale.ROOT, "; warm-up passes (JIT compilation, one short epoch per"
                + " network and loss before its first run) excluded: %.1f s", seconds);
    }

    private static Dataset head(Dataset data, int queries) {
        List<Query> qs = data.queries().subList(0, Math.min(queries, data.size()));
        return new Dataset(data.name() + " (warm-up)", data.features(), qs);
    }
}
