package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One point of {@code tune}'s search space: the {@code train} options that differ between trials.
 * A recipe is its own command line, so the winner is reproduced by {@code rankgrad train} with
 * exactly these options.
 */
record TuneRecipe(String model, String loss, String normalization, String transform, double lr, double inputNoise,
        double dropout, int batchQueries) {

    static final List<String> MODELS = List.of("linear", "B64", "R4.L", "attn");
    static final List<String> LOSSES = List.of("ndcg-type3", "ranknet", "lambdarank", "listnet", "approx-ndcg");
    static final List<String> NORMALIZATIONS = List.of("query-zscore", "standardize");
    static final List<String> TRANSFORMS = List.of("none", "signed-log1p");
    static final double[] LEARNING_RATES = {0.001, 0.003, 0.01};
    static final double[] INPUT_NOISE = {0, 0.05, 0.1};
    static final double[] DROPOUT = {0, 0.1};
    static final int[] BATCHES = {16, 32, 64};

    /**
     * The README's fixed recipes, tried first: the defaults (R4.L, nDCG-type3, query z-score) and the
     * recipe that beats LightGBM on the demo data (RankNet, standardize, input noise 0.1).
     */
    static List<TuneRecipe> fixed() {
        return List.of(new TuneRecipe("R4.L", "ndcg-type3", "query-zscore", "none", 0.001, 0, 0, 64),
                new TuneRecipe("R4.L", "ranknet", "standardize", "none", 0.001, 0.1, 0, 64));
    }

    /** The fixed recipes, then distinct recipes drawn uniformly with {@code random} until there are {@code n}. */
    static List<TuneRecipe> candidates(int n, Random random) {
        List<TuneRecipe> out = new ArrayList<>(fixed().subList(0, Math.min(n, fixed().size())));
        while (out.size() < n) {
            TuneRecipe r = new TuneRecipe(pick(MODELS, random), pick(LOSSES, random), pick(NORMALIZATIONS, random),
                    pick(TRANSFORMS, random), LEARNING_RATES[random.nextInt(LEARNING_RATES.length)],
                    INPUT_NOISE[random.nextInt(INPUT_NOISE.length)], DROPOUT[random.nextInt(DROPOUT.length)],
                    BATCHES[random.nextInt(BATCHES.length)]);
            if (!out.contains(r)) {
                out.add(r);
            }
        }
        return out;
    }

    private static String pick(List<String> values, Random random) {
        return values.get(random.nextInt(values.size()));
    }

    /** The train options of this recipe (without data, epochs, seed and output). */
    List<String> options() {
        List<String> o = new ArrayList<>(List.of("--model", model, "--loss", loss, "--normalization", normalization,
                "--lr", num(lr), "--batch-queries", Integer.toString(batchQueries)));
        if (!transform.equals("none")) {
            o.addAll(List.of("--transform", transform));
        }
        if (inputNoise > 0) {
            o.addAll(List.of("--input-noise", num(inputNoise)));
        }
        if (dropout > 0) {
            o.addAll(List.of("--dropout", num(dropout)));
        }
        return o;
    }

    /** A short label for the leaderboard. */
    String label() {
        return String.join(" ", options()).replace("--", "").replace("batch-queries", "batch");
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%s", v).replaceAll("\\.0$", "");
    }
}
