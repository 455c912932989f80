package example;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/** Ranks one query's documents with a trained model: RankDocuments model.json documents.txt */
public class RankDocuments {
    public static void main(String[] args) throws Exception {
        Scorer scorer = ModelFile.readScorer(Path.of(args[0]));  // immutable: share it between threads
        List<String> lines = Files.readAllLines(Path.of(args[1])); // a document per line: its features
        int width = scorer.features();
        float[] rows = new float[lines.size() * width];
        for (int d = 0; d < lines.size(); d++) {
            String[] values = lines.get(d).trim().split("\\s+");
            try {
                if (values.length != width) {
                    throw new NumberFormatException(values.length + " values, the model reads " + width);
                }
                for (int f = 0; f < width; f++) {
                    rows[d * width + f] = Float.parseFloat(values[f]);
                }
            } catch (NumberFormatException e) {
                System.err.println(args[1] + ":" + (d + 1) + ": " + e.getMessage()); // file:line: problem
                System.exit(2);
            }
        }
        float[] scores = scorer.score(rows, lines.size());
        List<Integer> best = IntStream.range(0, scores.length).boxed()
                .sorted(Comparator.comparingDouble(d -> -scores[d])).toList(); // stable: ties in input order
        for (int rank = 0; rank < best.size(); rank++) {
            int d = best.get(rank);
            System.out.println(d + "\t" + (rank + 1) + "\t" + scores[d]); // document (0-based line), rank, score
        }
    }
}
