package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;

/**
 * {@code --features} of {@code train} and {@code compare} (a picocli mixin): the LETOR feature ids
 * to train on, as a list with ranges ({@code 1-10,15}) or a RankLib feature file (one id per line,
 * {@code #} comments). The model stores the subset and picks its columns when scoring, so eval,
 * predict and export take full-width data.
 */
final class FeatureOption {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(names = "--features", paramLabel = "LIST|FILE", description = "train on these LETOR feature ids only: a list"
            + " with ranges (1-10,15) or a RankLib feature file (one id per line, # comments); the model remembers them"
            + " (default: every feature)")
    String features;

    /** The chosen subset, or null for every feature; a bad list or file is one line, before any data is read. */
    FeatureSubset subset() {
        if (features == null) {
            return null;
        }
        if (features.strip().matches("[0-9][0-9,\\-\\s]*")) {
            try {
                return FeatureSubset.parse(features);
            } catch (IllegalArgumentException e) {
                throw bad(e.getMessage());
            }
        }
        Path file = Path.of(features);
        if (!Files.isRegularFile(file)) {
            throw bad("'" + features + "' is neither a feature list (1-10,15) nor a file");
        }
        try {
            return FeatureSubset.read(file);
        } catch (IllegalArgumentException | IOException e) {
            throw bad(e.getMessage());
        }
    }

    /**
     * The subset's columns of {@code train} (the data itself without a subset); refuses a subset
     * that names features the training file does not have.
     */
    Dataset select(FeatureSubset subset, Dataset train) {
        if (subset == null) {
            return train;
        }
        if (subset.width() > train.features()) {
            throw bad("feature " + subset.width() + " is beyond the " + train.features() + " features of " + train.name());
        }
        return subset.apply(train);
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(command.commandLine(), "--features: " + message);
    }
}
