/**
 * The {@code rankgrad} command line (picocli): demo, train, compare, eval, predict, export,
 * generate, repro and stats, each a thin layer over the {@code ltr} library. Not an API: the
 * classes are package-private; {@link rankgrad.cli.Main} is the entry point.
 */
package rankgrad.cli;
