package rankgrad.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.SolrExport;

/** {@code rankgrad export}: a model for a serving system (Solr LTR NeuralNetworkModel). */
@Command(name = "export", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Export a model for serving. Solr: batch norm folded into the layers, standardization as StandardNormalizer.")
final class ExportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--model", required = true, description = "model file (model.json)")
    Path model;

    @Option(names = "--format", defaultValue = "solr", description = "export format: ${COMPLETION-CANDIDATES}")
    Format format;

    @Option(names = "--out", required = true, description = "output file, written atomically")
    Path out;

    @Option(names = "--name", defaultValue = "rankgrad", description = "model name in the serving system")
    String name;

    @Option(names = "--feature-names", description = "file with one feature-store name per line (default f1, f2, ...)")
    Path featureNames;

    enum Format { solr }

    @Override
    public Integer call() throws Exception {
        RankingModel m = ModelFile.read(model);
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
