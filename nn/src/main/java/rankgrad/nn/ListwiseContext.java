package rankgrad.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;

/**
 * The listwise-context scoring head of DASALC (Qin et al., ICLR 2021, Sec. 4.2): it turns the
 * per-document representations h (N x width, from a per-document network) of a ragged batch into
 * one score per document that depends on the other documents of the same list:
 *
 * <pre>
 *   a = LayerNorm(h + SelfAttention(h))          per list ({@link SelfAttention}, {@link LayerNorm1d})
 *   z = (1 + a) * h    (latent cross, elementwise; DASALC Eq. 3)   or   z = a    (residual)
 *   s = Linear(ReLU(Linear(z)))                   width -> width -> 1
 * </pre>
 *
 * The residual form is the post-norm transformer block of allRank's context-aware ranker; the
 * latent cross lets the list context rescale each document's own features. Scores are
 * permutation equivariant within a list and independent of other lists (no batch statistics).
 * Parameters: {@code attention.*}, {@code norm.*}, {@code head.0.*}, {@code head.2.*}.
 *
 * <pre>{@code
 * ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(64, 2, Combine.LATENT_CROSS, DType.F32, 7));
 * Var scores = ctx.forward(h, new int[] {0, 50, 80});   // two lists of 50 and 30 documents -> 80 x 1
 * }</pre>
 */
public final class ListwiseContext implements Layer {

    /** How the attention output a meets the representation h. */
    public enum Combine {
        /** z = (1 + a) * h elementwise (DASALC's latent cross). */
        LATENT_CROSS,
        /** z = a, where a already holds h through the block's residual connection. */
        RESIDUAL
    }

    /**
     * Everything that determines the block (stored in model files).
     *
     * @param width features of h per document (a multiple of {@code heads})
     * @param heads attention heads
     * @param combine latent cross or residual
     * @param dtype parameter dtype
     * @param seed seed of the weight initialization
     */
    public record Spec(int width, int heads, Combine combine, DType dtype, long seed) {
        public Spec {
            Objects.requireNonNull(combine, "combine");
            Objects.requireNonNull(dtype, "dtype");
            if (width < 1 || heads < 1 || width % heads != 0) {
                throw new IllegalArgumentException("the listwise context needs a width that splits into whole heads, got"
                        + " width " + width + " and " + heads + " heads");
            }
        }
    }

    private final Spec spec;
    private final SelfAttention attention;
    private final LayerNorm1d norm;
    private final Sequential head;
    private final Map<String, Var> parameters;

    private ListwiseContext(Spec spec) {
        this.spec = spec;
        SplittableRandom rng = new SplittableRandom(spec.seed());
        this.attention = SelfAttention.create(spec.width(), spec.heads(), rng, spec.dtype());
        this.norm = LayerNorm1d.create(spec.width(), spec.dtype());
        this.head = Sequential.of(Linear.create(spec.width(), spec.width(), Init.KAIMING_UNIFORM, rng, spec.dtype()),
                Activation.relu(), Linear.create(spec.width(), 1, Init.KAIMING_UNIFORM, rng, spec.dtype()));
        Map<String, Var> p = new LinkedHashMap<>();
        attention.namedParameters().forEach((name, v) -> p.put("attention." + name, v));
        norm.namedParameters().forEach((name, v) -> p.put("norm." + name, v));
        head.namedParameters().forEach((name, v) -> p.put("head." + name, v));
        this.parameters = Collections.unmodifiableMap(p);
    }

    /** Builds the block described by {@code spec}. */
    public static ListwiseContext create(Spec spec) {
        return new ListwiseContext(spec);
    }

    public Spec spec() {
        return spec;
    }

    /** Scores with every row in one list. */
    @Override
    public Var forward(Var h) {
        return forward(h, new int[] {0, h.value().rows()});
    }

    /** Scores (N x 1) of the lists {@code offsets} delimits in h (N x width). */
    public Var forward(Var h, int[] offsets) {
        Var a = norm.forward(Ops.add(h, attention.forward(h, offsets)));
        Var z = switch (spec.combine()) {
            case LATENT_CROSS -> Ops.add(h, Ops.mul(a, h));
            case RESIDUAL -> a;
        };
        return head.forward(z);
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public String toString() {
        return "ListwiseContext(" + spec.width() + ", heads=" + spec.heads() + ", " + spec.combine() + ")";
    }
}
