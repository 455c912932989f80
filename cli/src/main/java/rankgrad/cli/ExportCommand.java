package rankgrad.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.SolrExport;
import rankgrad.onnx.OnnxExport;

/**
 * {@code rankgrad export}: a model for a serving system, Solr LTR's NeuralNetworkModel
 * ({@link SolrExport}) or an ONNX graph ({@link OnnxExport}).
 */
@Command(name = "export", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Export a model for serving; batch norm is folded into the linear layers.",
            "solr: Solr LTR NeuralNetworkModel JSON, standardization as StandardNormalizer.",
            "onnx: ONNX graph (IR 8, opset 17), input 'features' [documents, d], output 'scores' [documents],"
                + " the normalization inside the graph (query-level z-score: one query per run)."})
final class ExportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json)")
    Path model;

    @Option(names = "--format", defaultValue = "solr", description = "export format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--out", required = true, description = "output file, written atomically")
    Path out;

    @Option(names = "--name", defaultValue = "rankgrad", description = "model name in the serving system (ONNX: the graph's name)")
    String name;

    @Option(names = "--feature-names", description = "solr only: file with one feature-store name per line (default f1, f2, ...)")
    Path featureNames;

    enum Format { solr, onnx }

    @Override
    public Integer call() throws Exception {
        if (format == Format.onnx && featureNames != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--feature-names applies to --format solr only"
                    + " (an ONNX model takes its features by column: LETOR feature j in column j - 1)");
        }
        Ensemble ensemble = ModelFile.readEnsemble(model);
        int members = ensemble.members().size();
        if (members > 1 && format == Format.solr) {
            spec.commandLine().getErr().println("rankgrad: cannot export " + model + " to Solr: it is an ensemble of "
                    + members + " models whose scores are averaged, and Solr's NeuralNetworkModel is one network;"
                    + " export a member (train writes each to OUT/member-k/model.json) or use --format onnx");
            return 1;
        }
        RankingModel m = ensemble.members().get(0);
        if (format == Format.onnx) {
            try {
                OnnxExport.write(ensemble, name, out);
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("rankgrad: " + e.getMessage());
                return 1;
            }
            spec.commandLine().getOut().printf("wrote ONNX model '%s' (IR %d, opset %d; %s%d features, %s normalization inside"
                    + " the graph%s) to %s%n", name, OnnxExport.IR_VERSION, OnnxExport.OPSET_VERSION,
                    members > 1 ? "the mean of " + members + " members; " : "", m.features(),
                    m.normalization().kind(), m.normalization() instanceof Normalization.QueryZScore
                            ? "; feed one query's documents per run" : "", out);
            return 0;
        }
        List<String> names = new ArrayList<>();
        if (featureNames != null) {
            for (String line : Files.readAllLines(featureNames)) {
                if (!line.isBlank()) {
                    names.add(line.strip());
                }
            }
        } else {
            for (int f = 1; f <= m.features(); f++) {
                names.add("f" + f);
            }
        }
        try {
            SolrExport.write(m, name, names, out);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("rankgrad: " + e.getMessage());
            return 1;
        }
        spec.commandLine().getOut().printf("wrote Solr model '%s' (%d features) to %s%n", name, names.size(), out);
        return 0;
    }
}
