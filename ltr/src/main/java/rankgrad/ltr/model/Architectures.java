package rankgrad.ltr.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rankgrad.autodiff.nn.Activation;
import rankgrad.autodiff.nn.Init;
import rankgrad.autodiff.nn.Mlp;

/**
 * The scoring networks of the papers, by name:
 * <ul>
 *   <li>{@code R5}, {@code CE5}, {@code R4.L}, {@code CE4.L} (Yu et al. Sec. 6.2): five linear
 *       layers, four hidden of 100 units, ReLU (R) or CELU (CE), batch normalization between
 *       consecutive layers; "5" activates the output layer too, ".L" leaves it linear.
 *   <li>{@code B64} .. {@code B1024} (Bruch et al. Sec. 4.2): hidden widths halving from the named
 *       width down to 16 (B64 = 64, 32, 16), ReLU, batch normalization over the input and between
 *       layers, linear output.
 *   <li>{@code linear}: one linear layer, s = x w + b.
 * </ul>
 * The networks with batch normalization draw their weights with {@link Init#UNIFORM_FAN_IN}
 * (PyTorch's {@code nn.Linear} default); the linear model with
 * {@link Init#XAVIER_UNIFORM}. Biases start at 0.
 */
public final class Architectures {
    private Architectures() {
    }

    /** The names {@link #spec} accepts. */
    public static List<String> names() {
        return List.of("linear", "R5", "CE5", "R4.L", "CE4.L", "B64", "B128", "B256", "B512", "B1024");
    }

    /**
     * The architecture's name as {@link #names()} spells it, for any capitalization of it ("r4.l"
     * gives "R4.L").
     *
     * @throws IllegalArgumentException naming the choices, for an unknown name
     */
    public static String canonical(String name) {
        return names().stream().filter(n -> n.equalsIgnoreCase(name.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + name + "'; choose one of " + names()));
    }

    /** The network called {@code name} over {@code features} inputs, its weights drawn from {@code seed}. */
    public static Mlp.Spec spec(String name, int features, long seed) {
        Mlp.Builder b = Mlp.builder(features).seed(seed).output(1);
        String n = canonical(name).toUpperCase(Locale.ROOT);
        switch (n) {
            case "LINEAR" -> b.hidden().batchNorm(false).activation(Activation.identity()).init(Init.XAVIER_UNIFORM);
            case "R5", "CE5", "R4.L", "CE4.L" -> b.hidden(100, 100, 100, 100).batchNorm(true).init(Init.UNIFORM_FAN_IN)
                    .activation(n.startsWith("CE") ? Activation.celu(1.0) : Activation.relu())
                    .lastActivated(!n.endsWith(".L"));
            default -> {
                List<Integer> widths = new ArrayList<>();
                for (int w = Integer.parseInt(n.substring(1)); w >= 16; w /= 2) {
                    widths.add(w);
                }
                b.hidden(widths.stream().mapToInt(Integer::intValue).toArray()).batchNorm(true).inputBatchNorm(true)
                        .activation(Activation.relu()).lastActivated(false).init(Init.UNIFORM_FAN_IN);
            }
        }
        return b.spec();
    }
}
