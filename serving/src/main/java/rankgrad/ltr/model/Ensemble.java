package rankgrad.ltr.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;

/**
 * An ensemble of models whose scores are averaged: s(x) = (1/K) sum_k s_k(x) (Qin et al., ICLR
 * 2021, DASALC Sec. 3.4: the same network trained from K seeds, scores averaged). Every member
 * reads the same feature columns with the same transform and normalization, so the features are
 * prepared once and each network scores them; the members may differ in anything else
 * (architecture, weights, loss).
 *
 * <p>Saved as one model file ({@link ModelFile#write(Ensemble, java.nio.file.Path)}); scored with
 * {@link #scorer()}, which computes the mean in float64 in member order and rounds it once.
 *
 * <pre>{@code
 * Ensemble e = Ensemble.of(List.of(modelSeed1, modelSeed2, modelSeed3));
 * float[] scores = e.scorer().score(rawData);
 * }</pre>
 *
 * <p>Thread-safety: like {@link RankingModel}, the members are mutable; {@link #scorer()} is an
 * immutable snapshot.
 */
public final class Ensemble {
    private final List<RankingModel> members;
    private final Map<String, Object> info = new LinkedHashMap<>();

    private Ensemble(List<RankingModel> members) {
        this.members = List.copyOf(members);
    }

    /**
     * The ensemble of {@code members} (at least one).
     *
     * @throws IllegalArgumentException when there is no member, or two members read different
     *     columns or use a different transform or normalization
     */
    public static Ensemble of(List<RankingModel> members) {
        if (members.isEmpty()) {
            throw new IllegalArgumentException("an ensemble needs at least one member");
        }
        RankingModel first = members.get(0);
        for (int k = 1; k < members.size(); k++) {
            RankingModel m = members.get(k);
            String differs = !m.inputs().equals(first.inputs()) ? "feature columns " + m.inputs() + " vs " + first.inputs()
                    : m.transform() != first.transform() ? "transform " + m.transform().kind() + " vs " + first.transform().kind()
                    : !sameNormalization(m, first) ? "normalization " + m.normalization().kind() + " vs "
                            + first.normalization().kind() + " (or its statistics)" : null;
            if (differs != null) {
                throw new IllegalArgumentException("ensemble member " + (k + 1) + " prepares its features differently from"
                        + " member 1: " + differs);
            }
        }
        return new Ensemble(members);
    }

    private static boolean sameNormalization(RankingModel a, RankingModel b) {
        if (a.normalization() instanceof Normalization.Standardization sa
                && b.normalization() instanceof Normalization.Standardization sb) {
            return Arrays.equals(sa.mean(), sb.mean()) && Arrays.equals(sa.std(), sb.std());
        }
        return a.normalization().kind().equals(b.normalization().kind());
    }

    /** The members, in order. */
    public List<RankingModel> members() {
        return members;
    }

    /** Free-form facts stored with the ensemble (how it was trained), in insertion order. */
    public Map<String, Object> info() {
        return info;
    }

    /** Raw features a row must have (see {@link RankingModel#features()}). */
    public int features() {
        return members.get(0).features();
    }

    /** The members' shared feature preparation applied to raw {@code data} ({@link RankingModel#normalize}). */
    public Dataset normalize(Dataset data) {
        return members.get(0).normalize(data);
    }

    /** A thread-safe scorer of the mean of the members' scores, from a snapshot of their weights. */
    public Scorer scorer() {
        List<Scorer.Member> networks = new ArrayList<>();
        for (RankingModel m : members) {
            networks.add(new Scorer.Member(m.network(), m.context().orElse(null)));
        }
        RankingModel first = members.get(0);
        return new Scorer(networks, first.transform(), first.normalization(), first.inputs());
    }
}
