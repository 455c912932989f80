package rankgrad.spark.submit;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.cli.LetorInputOptions;
import rankgrad.cli.MetricList;
import rankgrad.ltr.eval.TieOrder;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.MetricResult;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.metric.Ties;
import rankgrad.ltr.model.ModelFile;
import rankgrad.spark.LetorInput;
import rankgrad.spark.QueryEvaluator;
import rankgrad.spark.QueryFrames;
import rankgrad.spark.QueryRow;
import rankgrad.spark.QueryScorer;
import rankgrad.spark.SparkEvaluation;

/**
 * {@code eval}: {@code rankgrad eval --model} on Spark, the same numbers: exact metrics of a
 * model on LETOR data, the mean summed in query order whatever the partitioning.
 */
@Command(name = "eval", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Evaluate a rankgrad model with exact IR metrics on Spark; numbers equal 'rankgrad eval --model'."})
final class EvalCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "rankgrad model file (model.json), read by the driver")
    Path model;

    @Option(names = "--data", required = true, split = ",", description = "LETOR/SVMlight files, folders or globs on any"
            + " Hadoop file system (.gz accepted); comma-separated")
    List<String> data;

    @Option(names = "--metrics", defaultValue = "ndcg@1,3,5,10,20,map@10,err@10",
            description = "metrics; a bare cutoff repeats the metric before it")
    String metrics;

    @Option(names = "--per-query", description = "also print each query's values, in query order")
    boolean perQuery;

    @Option(names = "--no-relevant", defaultValue = "EXCLUDE",
            description = "queries without relevant documents: ${COMPLETION-CANDIDATES}")
    NoRelevantPolicy noRelevant;

    @Option(names = "--ties", defaultValue = "STABLE", description = "tied scores: ${COMPLETION-CANDIDATES} (stable: input"
            + " order; pessimistic: less relevant first)")
    Ties ties;

    @Option(names = "--gain", defaultValue = "EXPONENTIAL", description = "DCG's gain: ${COMPLETION-CANDIDATES}")
    Gain gain;

    @Option(names = "--ymax", defaultValue = "4", description = "the grade scale's maximum, for ERR and nERR")
    double ymax;

    @Option(names = "--split-bytes", defaultValue = "0", description = "bytes of a file one reading task scans"
            + " (0: spark.sql.files.maxPartitionBytes); queries are never split")
    long splitBytes;

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
        MetricConventions conv = new MetricConventions(ties, noRelevant, ymax, gain);
        SparkSession spark = SparkSession.builder().appName("rankgrad eval").getOrCreate();
        QueryScorer scorer = QueryScorer.of(spark, ModelFile.read(model));
        Dataset<QueryRow> queries = QueryFrames.readLetor(spark, new LetorInput(data, scorer.features(),
                LetorInputOptions.needsYmax(list) ? ymax : Double.POSITIVE_INFINITY, scorer.dropsWider(), null, splitBytes));
        SparkEvaluation e = QueryEvaluator.evaluate(scorer.transform(queries), list, conv);
        PrintWriter out = spec.commandLine().getOut();
        MetricResult first = e.results().get(0);
        out.printf(Locale.ROOT, "%s on %s (%d queries)%n", model, String.join(",", data), first.counted()
                + (noRelevant == NoRelevantPolicy.EXCLUDE ? first.withoutRelevant() : 0));
        out.println("conventions: " + describe(conv));
        for (MetricResult r : e.results()) {
            out.printf(Locale.ROOT, "%-10s %.4f%n", r.metric(), r.mean());
        }
        if (perQuery) {
            StringBuilder header = new StringBuilder("qid");
            list.forEach(m -> header.append('\t').append(m));
            out.println(header);
            Iterator<Row> it = e.perQuery().sort("order", "qid").toLocalIterator();
            while (it.hasNext()) {
                Row r = it.next();
                StringBuilder row = new StringBuilder(r.getString(1));
                for (int c = 0; c < list.size(); c++) {
                    double v = r.getDouble(3 + c);
                    row.append('\t').append(Double.isNaN(v) ? "excluded" : String.format(Locale.ROOT, "%.4f", v));
                }
                out.println(row);
            }
        }
        out.flush();
        e.perQuery().unpersist(false);
        return 0;
    }

    /** The conventions line of {@code rankgrad eval}: the same words, its tie order's included. */
    private String describe(MetricConventions conv) {
        String text = conv.describe();
        return "ties=" + TieOrder.valueOf(ties.name()).describe() + text.substring(text.indexOf(';'));
    }
}
