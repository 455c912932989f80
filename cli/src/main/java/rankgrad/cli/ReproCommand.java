package rankgrad.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.repro.RankAccuracy;

/** {@code rankgrad repro}: the papers' experiments that need no external data. */
@Command(name = "repro", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Reproduce a paper's table. rank-accuracy: Yu et al. Tables 2-3, with the paper's numbers beside.")
final class ReproCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT", description = "rank-accuracy")
    String experiment;

    @Option(names = "--seed", defaultValue = "2020", description = "seed of the uniform score vectors")
    long seed;

    @Override
    public Integer call() {
        if (!experiment.equals("rank-accuracy")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown experiment '" + experiment
                    + "'; available: rank-accuracy");
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        RankAccuracy.print(RankAccuracy.measure(seed, PairwiseBackends.cpu()), ps);
        spec.commandLine().getOut().print(buffer.toString(StandardCharsets.UTF_8));
        return 0;
    }
}
