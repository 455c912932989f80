package rankgrad.ltr.model;

import java.util.List;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.Activation;
import rankgrad.nn.Layer;
import rankgrad.nn.ListwiseContext;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;

/**
 * Scores documents with a snapshot of a trained {@link RankingModel}: s =
 * f(normalize(transform(select(x)))), the model's feature columns selected from raw rows
 * ({@link FeatureSubset}) and transformed ({@link FeatureTransform}), the network in
 * evaluation mode (batch normalization uses its running statistics), no graph recorded. Made by
 * {@link RankingModel#scorer()}. A model trained on a subset scores full-width rows: the scorer
 * picks its columns.
 *
 * <p>Immutable and thread-safe: the scorer owns a private copy of the network, switched to
 * evaluation mode once when it is made and never written afterwards (an evaluation-mode forward
 * pass only reads weights and statistics), so any number of threads may score at once and get the
 * same bits as one thread. Training the model further does not change a scorer made before.
 *
 * <p>An {@link Ensemble}'s scorer holds every member's network and scores with their mean,
 * s = (float) ((s_1 + ... + s_K) / K) summed in float64 in member order from each member's float32
 * score (so the same members give the same bits as averaging their own scorers' outputs that way).
 *
 * <p>A listwise-context model ({@code attn}) scores each query as a whole: a document's score
 * depends on the other documents of its query and on nothing else (not on other queries scored in
 * the same call).
 *
 * <p>Every score is checked: a NaN or infinite score raises {@link NonFiniteScoreException} naming
 * the query and document, instead of ranking by garbage; so does a NaN or infinite input of a
 * hidden activation, naming the layer too, since the activation could hide it.
 *
 * <pre>{@code
 * Scorer scorer = ModelFile.read(modelFile).scorer();
 * float[] scores = scorer.score(rows, docs);     // one query's raw features, docs x features
 * }</pre>
 */
public final class Scorer {
    /** Queries scored per forward pass when scoring a dataset (bounds memory, not results). */
    private static final int CHUNK_QUERIES = 512;

    private final List<Member> members;
    private final FeatureTransform transform;
    private final Normalization normalization;
    private final FeatureSubset inputs;

    /** One scoring network: a per-document MLP and, for a listwise model, its context block (else null). */
    record Member(Mlp network, ListwiseContext context) {
        Member {
            Objects.requireNonNull(network, "network");
        }

        /** A private evaluation-mode copy of this member's weights and statistics. */
        Member snapshot() {
            Mlp n = Mlp.create(network.spec());
            n.loadState(network.state());
            n.setTraining(false);
            if (context == null) {
                return new Member(n, null);
            }
            ListwiseContext c = ListwiseContext.create(context.spec());
            c.loadState(context.state());
            c.setTraining(false);
            return new Member(n, c);
        }
    }

    /**
     * A scorer of one member, or of an ensemble's members (the mean of their scores); the members share
     * the inputs, transform and normalization.
     */
    Scorer(List<Member> sources, FeatureTransform transform, Normalization normalization, FeatureSubset inputs) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a scorer needs at least one network");
        }
        this.members = sources.stream().map(Member::snapshot).toList();
        this.transform = Objects.requireNonNull(transform);
        this.normalization = Objects.requireNonNull(normalization);
        this.inputs = Objects.requireNonNull(inputs);
    }

    /**
     * Raw features the scorer expects per document: the network's input width, or with a subset
     * its highest feature id (datasets and queries may then be wider).
     */
    public int features() {
        return inputs.width();
    }

    /** The raw feature columns the network reads. */
    public FeatureSubset inputs() {
        return inputs;
    }

    /** The transform applied to the selected raw features before the normalization. */
    public FeatureTransform transform() {
        return transform;
    }

    /** The normalization applied to raw features before the network. */
    public Normalization normalization() {
        return normalization;
    }

    /**
     * The scores of one query's documents from their raw features ({@code docs x features} floats,
     * row-major); no labels needed.
     */
    public float[] score(float[] rows, int docs) {
        if (docs < 0 || rows.length != (long) docs * features()) {
            throw new IllegalArgumentException(rows.length + " feature values are not " + docs + " documents of "
                    + features() + " features");
        }
        return score(new Query("(rows)", features(), rows, new float[docs]));
    }

    /** The scores of one query's documents (raw features; its labels are not used). */
    public float[] score(Query query) {
        RankingModel.checkFeatures(inputs, query.features(), "query " + query.qid());
        Query q = normalization.apply(transform.apply(inputs.apply(query)));
        float[] out = forward(Tensor.of(q.x(), q.docs(), q.features()), new int[] {0, q.docs()}, List.of(query));
        requireFinite(out, 0, out.length, query);
        return out;
    }

    /** The scores of every document of raw data, queries in order. */
    public float[] score(Dataset raw) {
        RankingModel.checkFeatures(inputs, raw.features(), raw.name());
        return scoreNormalized(normalization.apply(transform.apply(inputs.apply(raw))));
    }

    /**
     * The scores of every document of data already selected, transformed and normalized as this scorer does
     * ({@link RankingModel#normalize}), queries in order: for loops that score the same data often.
     */
    public float[] scoreNormalized(Dataset normalized) {
        int width = members.get(0).network().spec().inputWidth();
        if (normalized.features() != width) {
            throw new IllegalArgumentException(normalized.name() + " has " + normalized.features() + " normalized features"
                    + " but the network takes " + width);
        }
        float[] out = new float[Math.toIntExact(normalized.documents())];
        int at = 0;
        for (int from = 0; from < normalized.size(); from += CHUNK_QUERIES) {
            int[] idx = new int[Math.min(CHUNK_QUERIES, normalized.size() - from)];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = from + i;
            }
            List<Query> chunk = normalized.queries().subList(from, from + idx.length);
            float[] s = forward(normalized.featureMatrix(idx), normalized.labelBatch(idx).offsets(), chunk);
            System.arraycopy(s, 0, out, at, s.length);
            for (int q : idx) {
                Query query = normalized.queries().get(q);
                requireFinite(out, at, query.docs(), query);
                at += query.docs();
            }
        }
        return out;
    }

    /**
     * The members' scores; with several (an ensemble), (float) (sum_k (double) s_k / K), members in
     * order. {@code queries} are the queries of the rows, for naming one whose activations overflow.
     */
    private float[] forward(Tensor normalizedFeatures, int[] queryOffsets, List<Query> queries) {
        if (members.size() == 1) {
            return forward(members.get(0), normalizedFeatures, queryOffsets, queries);
        }
        double[] sum = new double[normalizedFeatures.rows()];
        for (Member member : members) {
            float[] s = forward(member, normalizedFeatures, queryOffsets, queries);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += s[i];
            }
        }
        float[] out = new float[sum.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (sum[i] / members.size());
        }
        return out;
    }

    /**
     * One member's scores. The network runs module by module, as {@link Mlp#forward} does in
     * evaluation mode (the same operations, so the same bits; a ReLU through {@link Activation.Relu#evaluateOrNull},
     * the ReLU kernel with the check in its pass), and the input of each activation is checked: that is where a NaN or infinity would vanish (a ReLU turns NaN and -infinity into 0, a
     * sigmoid or tanh turns an infinity into a finite value), and the scores would then look valid
     * while ranking by garbage. A linear layer or batch norm passes a non-finite value on, so this
     * sees any that arose since the previous activation; after the last module the score check
     * (or, for a listwise model, the check of the context's input) sees the rest.
     */
    private static float[] forward(Member member, Tensor normalizedFeatures, int[] queryOffsets, List<Query> queries) {
        try (NoGrad ignored = NoGrad.enter()) {
            Var h = Var.constant(normalizedFeatures);
            List<Layer> modules = member.network().layers().modules();
            for (int l = 0; l < modules.size(); l++) {
                h = modules.get(l).forward(h);
                boolean last = l + 1 == modules.size();
                Layer next = last ? null : modules.get(l + 1);
                if (next instanceof Activation.Relu reluLayer && h.value().dtype() == DType.F32) {
                    // The usual case: the ReLU runs here, with the check folded into its own pass.
                    Tensor relu = reluLayer.evaluateOrNull(h.value());
                    if (relu == null) {
                        throw nonFinite(h.value(), HiddenActivations.firstRow(h.value()), l, modules, queryOffsets, queries);
                    }
                    h = Var.constant(relu);
                    l++;
                } else if (last ? member.context() != null : next instanceof Activation) {
                    int row = HiddenActivations.firstNonFiniteRow(h.value());
                    if (row >= 0) {
                        throw nonFinite(h.value(), row, l, modules, queryOffsets, queries);
                    }
                }
            }
            Tensor s = (member.context() == null ? h : member.context().forward(h, queryOffsets)).value();
            float[] out = new float[s.rows()];
            for (int i = 0; i < out.length; i++) {
                out[i] = (float) s.get(i);
            }
            return out;
        }
    }

    private static NonFiniteScoreException nonFinite(Tensor output, int row, int layer, List<Layer> modules,
            int[] queryOffsets, List<Query> queries) {
        return HiddenActivations.nonFinite(output, row, "layers." + layer + " (" + modules.get(layer) + ")", queryOffsets,
                queries);
    }

    private static void requireFinite(float[] scores, int from, int docs, Query query) {
        for (int i = 0; i < docs; i++) {
            if (!Float.isFinite(scores[from + i])) {
                throw new NonFiniteScoreException(query.qid(), i, scores[from + i]);
            }
        }
    }
}
