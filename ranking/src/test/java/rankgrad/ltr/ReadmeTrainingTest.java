package rankgrad.ltr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;

/** Runs the README's "Train a ranker from Java" snippet and checks the README still shows it. */
class ReadmeTrainingTest {
    @TempDir
    Path dir;

    static float[] trainFromJava(Path trainFile, Path validFile, Path modelFile) throws IOException {
        // README:begin
        Dataset train = LetorReader.read(trainFile);
        Dataset valid = LetorReader.read(validFile, train.features());
        RankingModel model = RankingModel.create("R4.L", train.features(), new Normalization.QueryZScore(), 42);
        RankingLoss loss = Losses.parse("ndcg-type3", 42);
        TrainingConfig config = TrainingConfig.defaults().withEpochs(5);
        TrainingResult result = Trainer.of(config).fit(model, loss, train, valid, TrainingListener.none());
        System.out.println(result.message());
        ModelFile.write(model, modelFile);
        float[] scores = ModelFile.read(modelFile).scorer().score(valid.queries().get(0));
        // README:end
        return scores;
    }

    @Test
    void snippetTrainsSavesAndScores() throws IOException {
        CubicData gen = CubicData.create(12, 3);
        Path train = dir.resolve("train.txt");
        Path valid = dir.resolve("vali.txt");
        LetorWriter.write(gen.sample("train", 64, 20, 1), train);
        LetorWriter.write(gen.sample("valid", 16, 20, 2), valid);
        float[] scores = trainFromJava(train, valid, dir.resolve("model.json"));
        assertEquals(20, scores.length);
        assertEquals("ndcg-type3", ModelFile.read(dir.resolve("model.json")).info().get("loss"));
    }

    @Test
    void readmeShowsThisSnippet() throws IOException {
        String source = Files.readString(Path.of("src/test/java/rankgrad/ltr/ReadmeTrainingTest.java"));
        String snippet = source.substring(source.indexOf("// README:begin") + "// README:begin".length(),
                source.indexOf("// README:end"));
        String readme = Files.readString(Path.of("../README.md"));
        assertTrue(normalize(readme).contains(normalize(snippet)),
                "README.md must show the snippet of ReadmeTrainingTest between the README markers");
        // every import the README's snippet shows is one this file compiles with, and none is missing
        String block = readme.substring(readme.indexOf("```java", readme.indexOf("## Train a ranker from Java")));
        block = block.substring(0, block.indexOf("```", 7));
        List<String> shown = block.lines().filter(l -> l.startsWith("import ")).sorted().toList();
        // this file's imports less the two the test itself uses, plus RankingLoss (this file's own package)
        List<String> needed = java.util.stream.Stream.concat(source.lines().filter(l -> (l.startsWith("import rankgrad.")
                || l.equals("import java.io.IOException;") || l.equals("import java.nio.file.Path;"))
                && !l.contains("CubicData") && !l.contains("LetorWriter")), java.util.stream.Stream.of(
                        "import rankgrad.ltr.loss.RankingLoss;")).sorted().toList();
        assertEquals(needed, shown, "the README snippet's imports");
    }

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").trim();
    }
}
