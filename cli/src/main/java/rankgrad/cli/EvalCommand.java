package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.eval.DocIds;
import rankgrad.ltr.eval.Judgments;
import rankgrad.ltr.eval.LetorScript;
import rankgrad.ltr.eval.Run;
import rankgrad.ltr.eval.RunEvaluation;
import rankgrad.ltr.eval.TieOrder;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/**
 * {@code rankgrad eval}: exact metrics of a rankgrad model, of another system's run or TSV, or of a
 * file of one score per data line, against the grades of a LETOR file or TREC qrels. Every input is
 * turned into a {@link Run} and matched by {@link RunEvaluation}, so a model and the TSV that
 * {@code predict} writes from it give the same numbers; several inputs give {@link ComparisonTable}.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Evaluate rankers with exact IR metrics; the report names its conventions.",
            "Inputs (any number, each a row of a comparison table when more than one): --model (a rankgrad model scored"
                + " on --data), --run (a TREC run 'qid Q0 docid rank score tag' or a TSV 'qid docid score' /"
                + " 'qid docid rank score', e.g. from predict), --scores (one score per line in --data's document order, as"
                + " LightGBM and XGBoost predict).",
            "Grades: --data (a LETOR file; documents named by their 'docid = ...' comments, or by their 0-based position in"
                + " the query when the file has none) or --qrels (TREC qrels 'qid 0 docid grade'). Documents scored but not"
                + " judged count as grade 0; judged documents not scored are ranked below every scored one of their query,"
                + " the less relevant first; both are counted in the report."})
final class EvalCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", description = "rankgrad model file (model.json), scored on --data; repeatable")
    List<Path> models = new ArrayList<>();

    @Option(names = "--run", paramLabel = "FILE", description = "TREC run or TSV of another system; repeatable")
    List<Path> runs = new ArrayList<>();

    @Option(names = "--scores", paramLabel = "FILE", description = "one score per line, in --data's document order;"
            + " repeatable")
    List<Path> scores = new ArrayList<>();

    @Option(names = "--name", paramLabel = "NAME", description = "a row's name instead of its file's path; repeatable:"
            + " the k-th --name names the k-th input in the order --model, --run and --scores appear on the command line"
            + " (give one per input)")
    List<String> names = new ArrayList<>();

    @Option(names = "--data", description = "LETOR/SVMlight file: the grades (and the features for --model)")
    Path data;

    @Option(names = "--qrels", paramLabel = "FILE", description = "TREC qrels 'qid 0 docid grade': the grades, instead"
            + " of --data")
    Path qrels;

    @Mixin
    LetorInputOptions input;

    @Option(names = "--metrics", defaultValue = "ndcg@1,3,5,10,20,map@10,err@10",
            description = "metrics; a bare cutoff repeats the metric before it; trec_eval's names (ndcg_cut.10, map_cut.10,"
                    + " P.5, recip_rank, map, ndcg) are accepted")
    String metrics;

    @Option(names = "--per-query", description = "also print each query's values (with several inputs, one row per"
            + " query and input)")
    boolean perQuery;

    @Option(names = "--baseline", paramLabel = "INPUT", description = "an input (its --name, or its file as given) to test"
            + " every other one against: mean difference and two-sided p-values of the Wilcoxon signed-rank and paired"
            + " t-tests per metric")
    String baseline;

    @Option(names = "--convention", description = "a reference tool's conventions: ${COMPLETION-CANDIDATES} (trec_eval:"
            + " --gain linear --ties trec_eval --no-relevant zero; lightgbm: no-relevant queries count as 1; letor: the"
            + " LETOR 4.0 script's formulas); its metrics unless --metrics is given")
    EvalConvention convention;

    @Option(names = "--no-relevant", defaultValue = "EXCLUDE",
            description = "queries without a relevant document: ${COMPLETION-CANDIDATES} (trec_eval: zero)")
    NoRelevantPolicy noRelevant;

    @Option(names = "--ties", defaultValue = "STABLE", description = "tied scores: ${COMPLETION-CANDIDATES} (stable: the"
            + " input's order; trec_eval: document id descending, as trec_eval 10.0 sorts)")
    TieOrder ties;

    @Option(names = "--gain", defaultValue = "EXPONENTIAL", description = "DCG's gain: ${COMPLETION-CANDIDATES}"
            + " (exponential: 2^y - 1, LightGBM's; linear: y, trec_eval's)")
    Gain gain;

    @Option(names = "--ymax", defaultValue = "4", description = "the grade scale's maximum, for ERR and nERR:"
            + " R(y) = (2^y - 1) / 2^ymax; with ERR, a grade above it is an error while reading")
    double ymax;

    @Override
    public Integer call() throws Exception {
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (convention != null) {
            for (String option : List.of("--gain", "--ties", "--no-relevant")) {
                if (given != null && given.hasMatchedOption(option)) {
                    throw bad("--convention " + convention.name().toLowerCase(Locale.ROOT) + " sets " + option
                            + "; give one or the other");
                }
            }
            gain = convention.gain;
            ties = convention.ties;
            noRelevant = convention.noRelevant;
            if (given == null || !given.hasMatchedOption("--metrics")) {
                metrics = convention.metrics;
            }
        }
        List<Metric> list;
        try {
            list = MetricList.parse(metrics);
        } catch (IllegalArgumentException e) {
            throw bad("--metrics: " + e.getMessage());
        }
        if (!(ymax > 0) || !Double.isFinite(ymax)) {
            throw bad("--ymax must be a finite number > 0, got " + ymax);
        }
        int inputs = models.size() + runs.size() + scores.size();
        if (inputs == 0) {
            throw bad("nothing to evaluate: give --model, --run or --scores");
        }
        if ((data == null) == (qrels == null)) {
            throw bad("give the grades with exactly one of --data (LETOR) and --qrels (TREC qrels)");
        }
        if (data == null && !(models.isEmpty() && scores.isEmpty())) {
            throw bad((models.isEmpty() ? "--scores" : "--model") + " needs --data (its documents are those of the data)");
        }
        if (qrels != null && input.groups != null) {
            throw bad("--groups applies to --data only");
        }
        if (convention == EvalConvention.LETOR) {
            for (Metric m : list) {
                if (!LetorScript.supports(m)) {
                    throw bad("--convention letor: the LETOR 4.0 script computes " + String.join(", ", LetorScript.METRICS)
                            + ", not " + m);
                }
            }
        }
        List<Path> all = new ArrayList<>(models);
        all.addAll(runs);
        all.addAll(scores);
        if (all.stream().map(Path::toString).distinct().count() < all.size()) {
            throw bad("an input is given twice: " + all);
        }
        Map<Path, String> rowName = rowNames(all);
        List<String> rowOrder = all.stream().map(rowName::get).toList();
        // --baseline names a row: its --name, or its file as given.
        int baselineRow = baseline == null ? -1 : rowOrder.contains(baseline) ? rowOrder.indexOf(baseline)
                : all.stream().map(Path::toString).toList().indexOf(baseline);
        if (baseline != null && (inputs < 2 || baselineRow < 0)) {
            throw bad(inputs < 2 ? "--baseline needs at least two inputs to compare"
                    : "--baseline " + baseline + " is not one of the inputs " + rowOrder);
        }
        MetricConventions conv = MetricConventions.defaults().withNoRelevant(noRelevant).withYmax(ymax).withGain(gain);
        LetorOptions read = input.options(list, ymax);
        Judgments judgments = data != null ? Judgments.readLetor(data, read, new DocIds(null))
                : Judgments.readQrels(qrels, LetorInputOptions.needsYmax(list) ? ymax : Double.POSITIVE_INFINITY);
        Map<String, Run> named = new LinkedHashMap<>();
        for (Path m : models) {
            add(named, rowName.get(m), modelRun(m, read));
        }
        for (Path r : runs) {
            add(named, rowName.get(r), Run.read(r));
        }
        for (Path s : scores) {
            add(named, rowName.get(s), Run.ofScoreLines(s, judgments));
        }
        PrintWriter out = spec.commandLine().getOut();
        List<RunEvaluation> evaluations = new ArrayList<>();
        for (Run r : named.values()) {
            evaluations.add(RunEvaluation.of(judgments, r, ties));
        }
        RunEvaluation first = evaluations.get(0);
        List<String> rows = List.copyOf(named.keySet());
        // How documents are named matters only where a run file's names must match the data's.
        String source = runs.isEmpty() && scores.isEmpty() && data != null ? data.toString() : judgments.source();
        out.printf(Locale.ROOT, "%s on %s (%d queries, %d documents)%n", inputs == 1 ? rows.get(0) : inputs + " rankers",
                source, first.qids().size(), first.batch().documents());
        out.println("conventions: " + (convention == null ? describe(conv) : convention.describe(describe(conv))));
        double[][][] values = new double[evaluations.size()][list.size()][];
        for (int r = 0; r < evaluations.size(); r++) {
            for (int c = 0; c < list.size(); c++) {
                values[r][c] = convention == EvalConvention.LETOR ? LetorScript.perQuery(evaluations.get(r), list.get(c))
                        : evaluations.get(r).perQuery(list.get(c), conv);
            }
        }
        for (int r = 0; r < evaluations.size(); r++) {
            out.println((inputs == 1 ? "" : rows.get(r) + ": ") + evaluations.get(r).coverage().describe());
        }
        List<String> columns = list.stream().map(Metric::toString).toList();
        if (inputs == 1) {
            for (int c = 0; c < list.size(); c++) {
                out.printf(Locale.ROOT, "%-10s %.4f%n", list.get(c), mean(values[0][c]));
            }
        } else {
            ComparisonTable table = ComparisonTable.of("ranker", rows, columns, values);
            out.printf("%n%s%n%s%n", table.markdown(), ComparisonTable.legend());
            if (baseline != null) {
                out.printf("%n%s%n%s%n", PairedTests.markdown(rows, baselineRow, columns, values),
                        PairedTests.legend(baseline));
            }
            List<String> recipes = new ArrayList<>();
            for (Path input : all) {
                recipes.add(models.contains(input) ? SeedSpread.recipe(input) : null);
            }
            String spread = SeedSpread.markdown(rows, recipes, columns, values);
            if (spread != null) {
                out.printf("%n%s%n%s%n", spread, SeedSpread.legend());
            }
        }
        if (perQuery) {
            StringBuilder header = new StringBuilder(inputs == 1 ? "qid" : "qid\tranker");
            list.forEach(metric -> header.append('\t').append(metric));
            out.println(header);
            for (int q = 0; q < first.qids().size(); q++) {
                for (int r = 0; r < inputs; r++) {
                    StringBuilder row = new StringBuilder(first.qids().get(q));
                    if (inputs > 1) {
                        row.append('\t').append(rows.get(r));
                    }
                    for (double[] v : values[r]) {
                        row.append('\t').append(Double.isNaN(v[q]) ? "excluded" : String.format(Locale.ROOT, "%.4f", v[q]));
                    }
                    out.println(row);
                }
            }
        }
        return 0;
    }

    /** The mean of the values that are not NaN (excluded), summed in query order as Metric.evaluate does. */
    private static double mean(double[] values) {
        double sum = 0;
        int counted = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                sum += v;
                counted++;
            }
        }
        return counted == 0 ? Double.NaN : sum / counted;
    }

    private String describe(MetricConventions conv) {
        String text = conv.withTies(ties.metricTies()).describe();
        return "ties=" + ties.describe() + text.substring(text.indexOf(';'));
    }

    /**
     * Each input's row name: its path, or with --name the name at its position among the inputs as
     * the command line gives them (picocli's matched arguments keep that order, a repeated option
     * once per occurrence).
     */
    private Map<Path, String> rowNames(List<Path> inputs) {
        Map<Path, String> byInput = new LinkedHashMap<>();
        if (names.isEmpty()) {
            inputs.forEach(p -> byInput.put(p, p.toString()));
            return byInput;
        }
        if (names.size() != inputs.size()) {
            throw bad(names.size() + " --name for " + inputs.size() + " inputs: give one --name per --model, --run and"
                    + " --scores, in their order on the command line");
        }
        if (names.stream().distinct().count() < names.size()) {
            throw bad("--name: a name is given twice: " + names);
        }
        for (String n : names) {
            if (n.isBlank() || n.contains("|") || !n.equals(n.strip())) {
                throw bad("--name '" + n + "': a row name must be non-blank, without '|' and without leading or trailing"
                        + " spaces (it is a cell of the table)");
            }
        }
        Map<String, Integer> next = new LinkedHashMap<>();
        Map<String, List<Path>> byOption = Map.of("--model", models, "--run", runs, "--scores", scores);
        int k = 0;
        for (CommandLine.Model.ArgSpec arg : spec.commandLine().getParseResult().matchedArgs()) {
            if (arg instanceof CommandLine.Model.OptionSpec option && byOption.containsKey(option.longestName())) {
                int i = next.merge(option.longestName(), 1, Integer::sum) - 1;
                byInput.put(byOption.get(option.longestName()).get(i), names.get(k++));
            }
        }
        return byInput;
    }

    private static void add(Map<String, Run> named, String name, Run run) {
        named.put(name, run);
    }

    /** The model's scores of every document of --data, named like the judgments. */
    private Run modelRun(Path model, LetorOptions read) throws IOException {
        Scorer scorer = ModelFile.readScorer(model);
        DocIds ids = new DocIds(null);
        Map<String, Map<String, Double>> queries = new LinkedHashMap<>();
        LetorReader.streamWithComments(data, scorer.features(), read, !scorer.inputs().isAll(), (q, comments) -> {
            String[] names = ids.names(data, q.qid(), comments);
            float[] s;
            try {
                s = scorer.score(q);
            } catch (NonFiniteScoreException e) {
                throw new IOException(model + " on " + data + ": " + e.getMessage(), e);
            }
            Map<String, Double> docs = new LinkedHashMap<>();
            for (int i = 0; i < s.length; i++) {
                docs.put(names[i], (double) s[i]);
            }
            queries.put(q.qid(), docs);
        });
        return new Run(model.toString(), queries);
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
