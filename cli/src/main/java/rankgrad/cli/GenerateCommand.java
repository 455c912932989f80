package rankgrad.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.DatasetStats;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.data.UniformData;

/**
 * {@code rankgrad generate cubic|uniform}: Burges' cubic polynomial data or Yu's uniform vectors as
 * train/vali/test LETOR files.
 */
@Command(name = "generate", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Generate the papers' synthetic data as LETOR files (Fold1/{train,vali,test}.txt).")
final class GenerateCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "KIND", description = "cubic (Burges Sec. 6.3.1) or uniform (Yu Sec. 4.2: feature 1 "
            + "uniform in [0,1), graded by it; further features are noise)")
    Kind kind;

    @Option(names = "--out", required = true, description = "directory to write Fold1/ into")
    Path out;

    @Option(names = "--queries", defaultValue = "1000,500,1000", split = ",",
            description = "queries in train,vali,test")
    int[] queries;

    @Option(names = "--docs", defaultValue = "50", description = "documents per query")
    int docs;

    @Option(names = "--features", description = "features (default: 50 for cubic, 1 for uniform)")
    Integer features;

    @Option(names = "--seed", defaultValue = "1", description = "random seed (the polynomial and the samples)")
    long seed;

    enum Kind { cubic, uniform }

    @Override
    public Integer call() throws Exception {
        if (queries.length != 3) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--queries needs three counts: train,vali,test");
        }
        int featureCount = features != null ? features : kind == Kind.cubic ? 50 : 1;
        if (featureCount < 1 || docs < 1 || Arrays.stream(queries).anyMatch(q -> q < 0)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--features and --docs must be >= 1 and --queries >= 0");
        }
        CubicData cubic = kind == Kind.cubic ? CubicData.create(featureCount, seed) : null;
        String[] names = {"train", "vali", "test"};
        Path fold = OutputFolder.subfolder(out, "Fold1");
        for (int i = 0; i < 3; i++) {
            Path file = fold.resolve(names[i] + ".txt");
            long sampleSeed = seed * 31 + i + 1;
            Dataset data = cubic != null ? cubic.sample(file.toString(), queries[i], docs, sampleSeed)
                    : UniformData.sample(file.toString(), queries[i], docs, featureCount, sampleSeed);
            LetorWriter.write(data, file);
            spec.commandLine().getOut().print(DatasetStats.of(data).report());
        }
        return 0;
    }
}
