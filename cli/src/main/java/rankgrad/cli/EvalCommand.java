package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.metric.Ties;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.RankingModel;

/** {@code rankgrad eval}: exact metrics of a model on a LETOR file. */
@Command(name = "eval", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Evaluate a model with exact IR metrics; the report names its conventions.")
final class EvalCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json)")
    Path model;

    @Option(names = "--data", required = true, description = "LETOR/SVMlight file")
    Path data;

    @Option(names = "--metrics", defaultValue = "ndcg@1,3,5,10,20,map@10,err@10",
            description = "metrics; a bare cutoff repeats the metric before it")
    String metrics;

    @Option(names = "--per-query", description = "also print each query's values")
    boolean perQuery;

    @Option(names = "--no-relevant", defaultValue = "EXCLUDE",
            description = "queries without a relevant document: ${COMPLETION-CANDIDATES}")
    NoRelevantPolicy noRelevant;

    @Option(names = "--ties", defaultValue = "STABLE", description = "tied scores: ${COMPLETION-CANDIDATES}")
    Ties ties;

    @Option(names = "--ymax", defaultValue = "4", description = "the grade scale's maximum, for ERR and nERR:"
            + " R(y) = (2^y - 1) / 2^ymax")
    double ymax;

    @Override
    public Integer call() throws Exception {
        List<Metric> list;
        try {
            list = MetricList.parse(metrics);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--metrics: " + e.getMessage());
        }
        if (!(ymax > 0) || !Double.isFinite(ymax)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ymax must be a finite number > 0, got " + ymax);
        }
        RankingModel m = ModelFile.read(model);
        Dataset d = LetorReader.read(data, m.features());
        float[] scores;
        try {
            scores = m.scorer().score(d);
        } catch (NonFiniteScoreException e) {
            throw new IOException(model + " on " + data + ": " + e.getMessage(), e);
        }
        QueryBatch batch = d.labelBatch(d.allQueries());
        MetricConventions conv = MetricConventions.defaults().withTies(ties).withNoRelevant(noRelevant).withYmax(ymax);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s on %s (%d queries, %d documents)%n", model, data, d.size(), d.documents());
        out.println("conventions: " + conv.describe());
        List<double[]> per = new ArrayList<>();
        for (Metric metric : list) {
            out.printf(Locale.ROOT, "%-10s %.4f%n", metric, metric.evaluate(scores, batch, conv).mean());
            per.add(metric.perQuery(scores, batch, conv));
        }
        if (perQuery) {
            StringBuilder header = new StringBuilder("qid");
            list.forEach(metric -> header.append('\t').append(metric));
            out.println(header);
            for (int q = 0; q < d.size(); q++) {
                StringBuilder row = new StringBuilder(d.queries().get(q).qid());
                for (double[] v : per) {
                    row.append('\t').append(Double.isNaN(v[q]) ? "excluded" : String.format(Locale.ROOT, "%.4f", v[q]));
                }
                out.println(row);
            }
        }
        return 0;
    }
}
