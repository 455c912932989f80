package rankgrad.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.AttentionLayout;
import rankgrad.nn.ops.AttentionMix;
import rankgrad.nn.ops.AttentionScores;
import rankgrad.nn.ops.RaggedSoftmax;
import rankgrad.nn.ops.ScaledDotProductAttention;

/**
 * Multi-head self-attention within each list of a ragged batch (Vaswani et al. 2017, Eq. 1-2):
 * for the rows X of one list and each head h (d = width / heads columns),
 *
 * <pre>
 *   head_h = softmax(Q_h K_h^T / sqrt(d)) V_h,   Q = X Wq + bq, K = X Wk + bk, V = X Wv + bv
 *   out    = [head_1 .. head_H] Wo + bo
 * </pre>
 *
 * with the softmax over the documents of the row's own list only ({@link ScaledDotProductAttention},
 * the fused {@link AttentionScores}, {@link RaggedSoftmax} and {@link AttentionMix}, same bits): a
 * document never attends to another list's documents, and batches need no padding. Parameters
 * {@code query.*, key.*, value.*, output.*} ({@link Linear}, Xavier-uniform weights as PyTorch's
 * {@code MultiheadAttention}, zero biases).
 *
 * <p>Permutation equivariant within a list: permuting a list's rows permutes its outputs.
 */
public final class SelfAttention implements Layer {
    private final int width;
    private final int heads;
    private final Linear query;
    private final Linear key;
    private final Linear value;
    private final Linear output;
    private final Map<String, Var> parameters;

    private SelfAttention(int width, int heads, RandomGenerator rng, DType dtype) {
        if (width < 1 || heads < 1 || width % heads != 0) {
            throw new IllegalArgumentException("self-attention needs a width that splits into whole heads, got width "
                    + width + " and " + heads + " heads");
        }
        this.width = width;
        this.heads = heads;
        this.query = Linear.create(width, width, Init.XAVIER_UNIFORM, rng, dtype);
        this.key = Linear.create(width, width, Init.XAVIER_UNIFORM, rng, dtype);
        this.value = Linear.create(width, width, Init.XAVIER_UNIFORM, rng, dtype);
        this.output = Linear.create(width, width, Init.XAVIER_UNIFORM, rng, dtype);
        Map<String, Var> p = new LinkedHashMap<>();
        put(p, "query", query);
        put(p, "key", key);
        put(p, "value", value);
        put(p, "output", output);
        this.parameters = Collections.unmodifiableMap(p);
    }

    private static void put(Map<String, Var> into, String prefix, Layer layer) {
        layer.namedParameters().forEach((name, v) -> into.put(prefix + "." + name, v));
    }

    /** Attention over rows of {@code width} features with {@code heads} heads, weights drawn from {@code rng}. */
    public static SelfAttention create(int width, int heads, RandomGenerator rng, DType dtype) {
        return new SelfAttention(width, heads, rng, dtype);
    }

    public int width() {
        return width;
    }

    public int heads() {
        return heads;
    }

    /** Attention with every row in one list. */
    @Override
    public Var forward(Var x) {
        return forward(x, new int[] {0, x.value().rows()});
    }

    /** Attention within each list: list q is rows {@code offsets[q] .. offsets[q+1]-1}. */
    public Var forward(Var x, int[] offsets) {
        AttentionLayout layout = new AttentionLayout(offsets, heads);
        Var q = query.forward(x);
        Var k = key.forward(x);
        Var v = value.forward(x);
        double scale = 1 / Math.sqrt((double) width / heads);
        return output.forward(Var.apply(new ScaledDotProductAttention(layout, scale), q, k, v));
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public String toString() {
        return "SelfAttention(" + width + ", heads=" + heads + ")";
    }
}
