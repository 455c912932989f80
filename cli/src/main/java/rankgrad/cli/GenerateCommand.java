package rankgrad.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.DatasetStats;
import rankgrad.ltr.data.LetorWriter;

/** {@code rankgrad generate cubic}: Burges' cubic polynomial data as train/vali/test LETOR files. */
@Command(name = "generate", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Generate the papers' synthetic data as LETOR files (Fold1/{train,vali,test}.txt).")
final class GenerateCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KIND", description = "cubic (Burges Sec. 6.3.1)")
    Kind kind;

    @Option(names = "--out", required = true, description = "directory to write Fold1/ into")
    Path out;

    @Option(names = "--queries", defaultValue = "1000,500,1000", split = ",",
            description = "queries in train,vali,test")
    int[] queries;

    @Option(names = "--docs", defaultValue = "50", description = "documents per query")
    int docs;

    @Option(names = "--features", defaultValue = "50", description = "features")
    int features;

    @Option(names = "--seed", defaultValue = "1", description = "random seed (the polynomial and the samples)")
    long seed;

    enum Kind { cubic }

    @Override
    public Integer call() throws Exception {
        if (queries.length != 3) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--queries needs three counts: train,vali,test");
        }
        CubicData gen = CubicData.create(features, seed);
        String[] names = {"train", "vali", "test"};
        Path fold = out.resolve("Fold1");
        for (int i = 0; i < 3; i++) {
            Path file = fold.resolve(names[i] + ".txt");
            Dataset d = gen.sample(file.toString(), queries[i], docs, seed * 31 + i + 1);
            LetorWriter.write(d, file);
            spec.commandLine().getOut().print(DatasetStats.of(d).report());
        }
        return 0;
    }
}
