/**
 * The {@code rankgrad} command line (picocli): demo, train, compare, eval, predict, export,
 * generate, repro and stats, each a thin layer over the {@code ltr} library. Not an API: the
 * commands are package-private; {@link rankgrad.cli.Main} is the entry point. Public are only the
 * option mixins and parsers that the Spark module's commands share with these
 * ({@link rankgrad.cli.BaseTrainingOptions}, {@link rankgrad.cli.RunFormatOptions},
 * {@link rankgrad.cli.MetricList}, {@link rankgrad.cli.LetorInputOptions#needsYmax}), so that both
 * take the same option names, defaults and messages.
 */
package rankgrad.cli;
