package rankgrad.ltr.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rankgrad.autodiff.DType;
import rankgrad.nn.Activation;
import rankgrad.nn.Init;
import rankgrad.nn.ListwiseContext;
import rankgrad.nn.Mlp;

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
 *   <li>{@code attn}, {@code attn.h<heads>.w<width>}, with {@code .res} appended for the residual
 *       form (DASALC, Qin et al. ICLR 2021 Sec. 4.2; defaults 2 heads, width 64): a per-document
 *       network of three linear layers of {@code width} units with batch normalization and ReLU
 *       gives h, then multi-head self-attention over the documents of each query, layer norm and
 *       the latent cross (1 + a) * h (or the residual block output a) feed a scoring head
 *       ({@link ListwiseContext}). A document's score depends on the other documents of its
 *       query, so scoring needs whole queries (as {@link Scorer} and training provide them).
 * </ul>
 * The networks with batch normalization draw their weights with {@link Init#UNIFORM_FAN_IN}
 * (PyTorch's {@code nn.Linear} default); the linear model with
 * {@link Init#XAVIER_UNIFORM}. Biases start at 0.
 */
public final class Architectures {
    /** The listwise-context family: attn[.h<heads>][.w<width>][.res], any capitalization. */
    private static final Pattern ATTENTION = Pattern.compile("(?i)attn(?:\\.h(\\d{1,3}))?(?:\\.w(\\d{1,4}))?(\\.res)?");
    /** Heads of {@code attn} without {@code .h}. */
    public static final int DEFAULT_HEADS = 2;
    /** Width of {@code attn} without {@code .w}. */
    public static final int DEFAULT_WIDTH = 64;

    private Architectures() {
    }

    /**
     * The names {@link #spec} accepts; {@code attn} stands for its family
     * {@code attn[.h<heads>][.w<width>][.res]}.
     */
    public static List<String> names() {
        return List.of("linear", "R5", "CE5", "R4.L", "CE4.L", "B64", "B128", "B256", "B512", "B1024", "attn");
    }

    /** Whether {@link #canonical} accepts {@code name}. */
    public static boolean isKnown(String name) {
        return ATTENTION.matcher(name.strip()).matches() || names().stream().anyMatch(n -> n.equalsIgnoreCase(name.strip()));
    }

    /**
     * The architecture's name as {@link #names()} spells it, for any capitalization of it ("r4.l"
     * gives "R4.L"); an attn name in lower case without the default settings ("ATTN.H2.W32" gives
     * "attn.w32").
     *
     * @throws IllegalArgumentException naming the choices, for an unknown name
     */
    public static String canonical(String name) {
        Matcher m = ATTENTION.matcher(name.strip());
        if (m.matches()) {
            int heads = m.group(1) == null ? DEFAULT_HEADS : Integer.parseInt(m.group(1));
            int width = m.group(2) == null ? DEFAULT_WIDTH : Integer.parseInt(m.group(2));
            if (heads < 1 || width < 1 || width % heads != 0) {
                throw new IllegalArgumentException("model '" + name + "': the width (" + width + ") must be a positive"
                        + " multiple of the heads (" + heads + ")");
            }
            return "attn" + (heads == DEFAULT_HEADS ? "" : ".h" + heads) + (width == DEFAULT_WIDTH ? "" : ".w" + width)
                    + (m.group(3) == null ? "" : ".res");
        }
        return names().stream().filter(n -> n.equalsIgnoreCase(name.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown model '" + name + "'; choose one of " + names()
                        + " (attn takes settings: attn.h<heads>.w<width>[.res], e.g. attn.h4.w128)"));
    }

    /**
     * The listwise-context block of an {@code attn} architecture, its weights drawn from a seed
     * derived from {@code seed}; empty for the per-document networks.
     */
    public static Optional<ListwiseContext.Spec> context(String name, long seed) {
        Matcher m = ATTENTION.matcher(canonical(name));
        if (!m.matches()) {
            return Optional.empty();
        }
        int heads = m.group(1) == null ? DEFAULT_HEADS : Integer.parseInt(m.group(1));
        int width = m.group(2) == null ? DEFAULT_WIDTH : Integer.parseInt(m.group(2));
        return Optional.of(new ListwiseContext.Spec(width, heads, m.group(3) == null ? ListwiseContext.Combine.LATENT_CROSS : ListwiseContext.Combine.RESIDUAL, DType.F32,
                contextSeed(seed)));
    }

    /**
     * The seed of the context block of a model seeded with {@code seed}: another stream than the
     * network's, and as small as the seed, so that a model file's JSON number holds it exactly.
     */
    static long contextSeed(long seed) {
        return seed + 1;
    }

    /**
     * The network called {@code name} over {@code features} inputs, its weights drawn from
     * {@code seed}; for {@code attn} the per-document network that gives h (output width = width).
     */
    public static Mlp.Spec spec(String name, int features, long seed) {
        Mlp.Builder b = Mlp.builder(features).seed(seed).output(1);
        String n = canonical(name).toUpperCase(Locale.ROOT);
        Optional<ListwiseContext.Spec> context = context(name, seed);
        if (context.isPresent()) {
            int w = context.get().width();
            // Every layer feeds a batch norm, as in R4.L: the fan-in bound (Init.UNIFORM_FAN_IN says why).
            return b.hidden(w, w).output(w).batchNorm(true).activation(Activation.relu()).lastActivated(true)
                    .init(Init.UNIFORM_FAN_IN).spec();
        }
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
