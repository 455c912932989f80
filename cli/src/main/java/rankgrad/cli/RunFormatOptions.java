package rankgrad.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --format} and {@code --tag} of {@code rankgrad predict} and of the Spark module's
 * {@code score} (a picocli mixin): TSV lines {@code qid docid rank score} under a header, or a TREC
 * run {@code qid Q0 docid rank score tag} whose tag is one word.
 */
public final class RunFormatOptions {
    /** The run tag when --tag is not given. */
    static final String DEFAULT_TAG = "rankgrad";

    /** The output formats. */
    public enum Format {
        /** A header, then qid, docid, rank, score, tab-separated. */
        tsv,
        /** A TREC run for trec_eval, 'qid Q0 docid rank score tag'. */
        trec
    }

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(names = "--format", defaultValue = "tsv", description = "output format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--tag", description = "trec only: the run tag of the last column (default: " + DEFAULT_TAG + ")")
    String tag;

    /** Options set by picocli. */
    public RunFormatOptions() {
    }

    /** Whether the output is a TREC run. */
    public boolean trec() {
        return format == Format.trec;
    }

    /**
     * The run tag of the TREC run's last column; refuses {@code --tag} without {@code --format trec}
     * and a tag that is not one word, with a {@link CommandLine.ParameterException}.
     */
    public String runTag() {
        return checkTag(command.commandLine(), tag, format == Format.trec);
    }

    /**
     * {@code tag} (null: the default) as the run tag of a TREC run, refusing a tag without
     * {@code trec} and a tag that is not one word with a {@link CommandLine.ParameterException}
     * of {@code command}.
     */
    static String checkTag(CommandLine command, String tag, boolean trec) {
        if (tag != null && !trec) {
            throw new CommandLine.ParameterException(command, "--tag applies to --format trec only");
        }
        String runTag = tag == null ? DEFAULT_TAG : tag;
        if (!runTag.matches("\\S+")) {
            throw new CommandLine.ParameterException(command, "--tag '" + runTag
                    + "' must be one word without spaces (it is a column of the run)");
        }
        return runTag;
    }

    /** The first line of the TSV format (without its line break). */
    public static final String TSV_HEADER = "qid\tdocid\trank\tscore";

    /**
     * The line (without its line break) of the document {@code docid} of query {@code qid} at
     * 1-based {@code rank} with {@code score}: {@code qid docid rank score} tab-separated, or with
     * {@code trec} the TREC run's {@code qid Q0 docid rank score runTag}.
     */
    public static String line(boolean trec, String qid, String docid, int rank, float score, String runTag) {
        return trec ? qid + " Q0 " + docid + " " + rank + " " + score + " " + runTag
                : qid + "\t" + docid + "\t" + rank + "\t" + score;
    }

    /** The format's name in a command's report: {@code TREC run} or {@code TSV}. */
    public String describe() {
        return trec() ? "TREC run" : "TSV";
    }
}
