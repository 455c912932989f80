import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.loss.RankingLoss;

/**
 * rankgrad's side of the epoch benchmark's loss cross-check (loss_check.py): reads a batch as
 * "query,label,score" lines (queries contiguous, float32 scores), runs the training loss (default
 * ndcg-type3, as `rankgrad train`) forward and backward at step 1, and prints the loss value, then
 * the score gradient one value a line. Run from source against the CLI jar:
 * {@code java -cp cli/target/rankgrad.jar benchmarks/reference/LossCheck.java batch.csv [loss]}.
 */
public final class LossCheck {
    public static void main(String[] args) throws Exception {
        List<float[]> labels = new ArrayList<>();
        List<Float> scores = new ArrayList<>();
        List<Float> current = new ArrayList<>();
        String query = null;
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] f = line.split(",");
            if (query != null && !query.equals(f[0])) {
                labels.add(toArray(current));
                current.clear();
            }
            query = f[0];
            current.add(Float.parseFloat(f[1]));
            scores.add(Float.parseFloat(f[2]));
        }
        labels.add(toArray(current));
        RankingLoss loss = Losses.parse(args.length > 1 ? args[1] : "ndcg-type3", 1).forRun(1).atStep(1);
        Var x = Var.param(Tensor.of(toArray(scores), scores.size()));
        Var value = loss.loss(x, QueryBatch.of(labels.toArray(float[][]::new)));
        value.backward();
        StringBuilder out = new StringBuilder().append(value.value().item()).append('\n');
        for (float g : x.grad().f32()) {
            out.append(g).append('\n');
        }
        System.out.print(out);
    }

    private static float[] toArray(List<Float> values) {
        float[] a = new float[values.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = values.get(i);
        }
        return a;
    }
}
