package rankgrad.ltr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/** Runs the README's server-side scoring example from several threads; checks the README shows it and its imports. */
class ReadmeServingTest {
    @TempDir
    Path dir;

    // README-serving:begin
    /** Loads the model once; request threads share its scorer (immutable, thread-safe). */
    static final class RankingService {
        private final Scorer scorer;

        RankingService(Path modelFile) throws IOException {
            this.scorer = ModelFile.read(modelFile).scorer();
        }

        /** One request: one query's documents, docs x features raw feature values, row-major. */
        float[] score(float[] rows, int docs) {
            return scorer.score(rows, docs);
        }
    }
    // README-serving:end

    @Test
    void requestThreadsShareOneScorerAndGetTheSingleThreadScores() throws Exception {
        Dataset data = CubicData.create(8, 1).sample("requests", 40, 15, 2);
        Path modelFile = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("R4.L", 8, new Normalization.QueryZScore(), 3), modelFile);
        RankingService service = new RankingService(modelFile);
        List<float[]> expected = new ArrayList<>();
        for (Query q : data.queries()) {
            expected.add(service.score(q.x(), q.docs()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 5; round++) {
                List<Future<float[]>> answers = new ArrayList<>();
                for (Query q : data.queries()) {
                    answers.add(pool.submit(() -> service.score(q.x(), q.docs())));
                }
                for (int i = 0; i < answers.size(); i++) {
                    assertArrayEquals(expected.get(i), answers.get(i).get(), "query " + i + ", bit for bit");
                }
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void readmeShowsTheExampleAndOnlyImportsThatCompile() throws IOException {
        String source = Files.readString(Path.of("src/test/java/rankgrad/ltr/ReadmeServingTest.java"));
        String readme = Files.readString(Path.of("../README.md"));
        String snippet = source.substring(source.indexOf("// README-serving:begin") + "// README-serving:begin".length(),
                source.indexOf("// README-serving:end"));
        assertTrue(normalize(readme).contains(normalize(snippet)), "README.md must show ReadmeServingTest's example");
        for (String imp : List.of("import java.io.IOException;", "import java.nio.file.Path;",
                "import rankgrad.ltr.model.ModelFile;", "import rankgrad.ltr.model.Scorer;")) {
            assertTrue(source.contains(imp) && readme.contains(imp), imp);
        }
    }

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
