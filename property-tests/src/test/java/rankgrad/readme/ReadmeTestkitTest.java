package rankgrad.readme;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Checks that the "Check your own rank operator" section of docs/library.md shows {@link ExactRanksTest}
 * (everything after its package line, which the build compiles and runs) and the testkit's Maven
 * coordinates at this build's version.
 */
class ReadmeTestkitTest {

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }

    private static String readme() throws IOException {
        return normalize(Files.readString(Path.of("../docs/library.md")));
    }

    @Test
    void readmeShowsTheWholeExampleTest() throws IOException {
        String source = Files.readString(Path.of("src/test/java/rankgrad/readme/ExactRanksTest.java"));
        String afterPackage = source.substring(source.indexOf(';') + 1);
        assertTrue(readme().contains(normalize(afterPackage)),
                "docs/library.md must show ExactRanksTest.java, from its imports to its last brace");
    }

    @Test
    void readmeShowsTheCoordinatesOfThisVersion() throws IOException {
        String version = System.getProperty("rankgrad.version");
        String dependency = "<dependency> <groupId>io.github.rankgrad</groupId> <artifactId>rankgrad-testkit</artifactId> <version>"
                + version + "</version> <scope>test</scope> </dependency>";
        assertTrue(readme().contains(dependency), "docs/library.md must show the test-scope dependency " + dependency);
    }
}
