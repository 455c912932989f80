package rankgrad.spark.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import rankgrad.cli.DocPages;
import rankgrad.cli.MarkdownPage;
import rankgrad.cli.ShellCommand;

/** Every {@code spark-submit} line of {@link SparkMain} in the documentation parses against its command spec. */
class SubmitLinesInDocsTest {
    @Test
    void everySparkSubmitLineParses() {
        List<String> failures = new ArrayList<>();
        int parsed = 0;
        for (MarkdownPage page : DocPages.all()) {
            for (MarkdownPage.CodeBlock b : page.codeBlocks()) {
                if (!ShellCommand.holdsCommands(b.language())) {
                    continue;
                }
                for (ShellCommand c : ShellCommand.of(b)) {
                    List<String> w = c.words();
                    if (!w.contains(SparkMain.class.getName())) {
                        continue;
                    }
                    // spark-submit [options] JAR [arguments of the main class]
                    int jar = w.indexOf(w.stream().filter(x -> x.endsWith(".jar")).findFirst().orElseThrow());
                    try {
                        new CommandLine(new SparkMain()).parseArgs(w.subList(jar + 1, w.size()).toArray(String[]::new));
                    } catch (CommandLine.ParameterException e) {
                        failures.add(c.where() + ": " + e.getMessage());
                    }
                    parsed++;
                }
            }
        }
        assertEquals(List.of(), failures);
        // score, eval and train in docs/spark.md
        assertTrue(parsed >= 3, "only " + parsed + " spark-submit lines found");
    }
}
