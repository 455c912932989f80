package rankgrad.ltr;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.quicktheories.core.Gen;

/**
 * Generators of ragged batches with scores for ranking properties, built from QuickTheories'
 * integer and list generators so failures shrink to few queries, few documents and small values.
 * All scores are multiples of 1/16 (exact in binary), so shifting or scaling by powers of two is
 * exact and cannot create or break ties.
 */
public final class RankingCases {
    private RankingCases() {
    }

    /** A batch and its flat float64 scores. */
    public record Case(QueryBatch batch, double[] scores) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int q = 0; q < batch.queries(); q++) {
                sb.append("\n  query ").append(q).append(": labels ").append(Arrays.toString(batch.labelsOf(q)))
                        .append(" scores ").append(Arrays.toString(
                                Arrays.copyOfRange(scores, batch.start(q), batch.start(q) + batch.size(q))));
            }
            return sb.toString();
        }
    }

    /** One generated document: a grade, a gap to the next score, and a slot deciding its position. */
    private record Doc(int label, int gap, int slot) {
    }

    private static Gen<List<List<Doc>>> batches(int maxQueries, int maxDocs) {
        Gen<Doc> doc = integers().between(0, 4).zip(integers().between(1, 24), integers().between(0, 99), Doc::new);
        return lists().of(lists().of(doc).ofSizeBetween(1, maxDocs)).ofSizeBetween(1, maxQueries);
    }

    /**
     * Batches whose scores within a query are pairwise at least 1/16 apart: no ties, and far from
     * the kink of the smoothed hinge at a score difference of 0 (for finite differences of step
     * 1e-5 or less).
     */
    public static Gen<Case> distinctScores(int maxQueries, int maxDocs) {
        return batches(maxQueries, maxDocs).map(RankingCases::withDistinctScores);
    }

    /**
     * Batches with many tied scores (values in {-1, -0.75, ..., 1}, the zero sometimes -0.0), for
     * laws that must hold for any tie-break.
     */
    public static Gen<Case> tiedScores(int maxQueries, int maxDocs) {
        return batches(maxQueries, maxDocs).map(RankingCases::withTiedScores);
    }

    private static Case withDistinctScores(List<List<Doc>> queries) {
        List<Float> labels = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        int[] offsets = new int[queries.size() + 1];
        for (int q = 0; q < queries.size(); q++) {
            List<Doc> docs = queries.get(q);
            int m = docs.size();
            Integer[] bySlot = new Integer[m];
            for (int i = 0; i < m; i++) {
                bySlot[i] = i;
            }
            Arrays.sort(bySlot, Comparator.comparingInt(i -> docs.get(i).slot()));
            double[] s = new double[m];
            int level = 0;
            for (int r = 0; r < m; r++) {
                level += docs.get(r).gap();
                s[bySlot[r]] = level / 16.0;
            }
            int centre = level / 2;
            for (int i = 0; i < m; i++) {
                labels.add((float) docs.get(i).label());
                scores.add(s[i] - centre / 16.0);
            }
            offsets[q + 1] = offsets[q] + m;
        }
        return build(offsets, labels, scores);
    }

    private static Case withTiedScores(List<List<Doc>> queries) {
        List<Float> labels = new ArrayList<>();
        List<Double> scores = new ArrayList<>();
        int[] offsets = new int[queries.size() + 1];
        for (int q = 0; q < queries.size(); q++) {
            for (Doc d : queries.get(q)) {
                int level = d.slot() % 9 - 4;
                labels.add((float) d.label());
                scores.add(level == 0 && d.gap() % 2 == 0 ? -0.0 : level / 4.0);
            }
            offsets[q + 1] = offsets[q] + queries.get(q).size();
        }
        return build(offsets, labels, scores);
    }

    private static Case build(int[] offsets, List<Float> labels, List<Double> scores) {
        float[] y = new float[labels.size()];
        double[] s = new double[scores.size()];
        for (int i = 0; i < y.length; i++) {
            y[i] = labels.get(i);
            s[i] = scores.get(i);
        }
        return new Case(new QueryBatch(offsets, y), s);
    }
}
