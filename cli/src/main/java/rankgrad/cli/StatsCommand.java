package rankgrad.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import rankgrad.ltr.data.DatasetStats;
import rankgrad.ltr.letor.LetorReader;

/** {@code rankgrad stats FILE}: queries, documents, features, label mix of LETOR files. */
@Command(name = "stats", mixinStandardHelpOptions = true, description = "Summarize LETOR files.")
final class StatsCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "LETOR/SVMlight files (.gz accepted)")
    Path[] files;

    @picocli.CommandLine.Mixin
    LetorInputOptions input;

    @Override
    public Integer call() throws Exception {
        if (input.groups != null && files.length > 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--groups names the group sizes of one"
                    + " file, but " + files.length + " files were given");
        }
        for (Path f : files) {
            spec.commandLine().getOut().print(DatasetStats.of(LetorReader.read(f, 0, input.options())).report());
        }
        return 0;
    }
}
