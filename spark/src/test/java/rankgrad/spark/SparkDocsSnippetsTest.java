package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.JavaSnippet;
import rankgrad.cli.SnippetCompiler;

/**
 * The documentation's Spark snippets, which the cli module's DocsSnippetsTest leaves to this
 * module (Spark is on this class path only): java blocks that import Spark compile. The
 * {@code spark-submit} lines are spark-submit's module's ({@code SubmitLinesInDocsTest}).
 */
class SparkDocsSnippetsTest {
    @TempDir
    Path work;

    @Test
    void everyJavaSnippetThatNeedsSparkCompiles() throws IOException {
        SnippetCompiler compiler = SnippetCompiler.forThisJvm(work);
        List<String> failures = new ArrayList<>();
        int compiled = compiler.checkAll(snippet -> snippet.imports(JavaSnippet.SPARK_PACKAGES), failures);
        assertEquals(List.of(), failures);
        // docs/spark.md: the Pipeline API, scoring and evaluation, and distributed training.
        assertTrue(compiled >= 3, "only " + compiled + " Spark snippets found");
    }
}
