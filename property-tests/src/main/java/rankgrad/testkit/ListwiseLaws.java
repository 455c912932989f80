package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * Laws of a listwise scorer, one that scores each document of a ragged batch against the other
 * documents of its list (query), such as self-attention over a query's documents:
 * <ul>
 *   <li>{@link #assertListsAreIndependent}: a list's scores are those it gets alone; neither the
 *       other lists of the batch nor empty lists between them (the ragged batch's only form of
 *       padding) change them;</li>
 *   <li>{@link #assertPermutationEquivariant}: permuting the documents of a list permutes its
 *       scores the same way (the scorer reads a list as a set, not a sequence).</li>
 * </ul>
 * Cases come from {@link #cases}, whose draws all come from QuickTheories' randomness source, so a
 * failure shrinks towards fewer lists, fewer documents, features 0 and the identity permutation.
 *
 * <pre>{@code
 * qt().withExamples(100).forAll(ListwiseLaws.cases(4, 9, 6))
 *         .checkAssert(c -> ListwiseLaws.assertListsAreIndependent(myScorer, c, 0.0));
 * }</pre>
 */
public final class ListwiseLaws {

    /** Scores the documents of a ragged batch: {@code rows} is N x features row-major, list q is rows offsets[q] .. offsets[q+1]-1. */
    @FunctionalInterface
    public interface ListScorer {
        double[] score(float[] rows, int features, int[] offsets);
    }

    /**
     * A ragged batch of feature rows and a permutation of its first list.
     *
     * @param rows N x features, row-major, values multiples of 1/8 in [-2, 2]
     * @param features columns per row
     * @param offsets list boundaries (empty lists occur)
     * @param permutation a permutation of 0 .. m_0-1, the documents of list 0
     */
    public record ListCase(float[] rows, int features, int[] offsets, int[] permutation) {
        /** Number of lists. */
        public int lists() {
            return offsets.length - 1;
        }

        @Override
        public String toString() {
            return "ListCase[offsets=" + Arrays.toString(offsets) + ", permutation=" + Arrays.toString(permutation)
                    + ", rows=" + Arrays.toString(rows) + "]";
        }
    }

    private ListwiseLaws() {
    }

    /** Batches of 1 to {@code maxLists} lists of 0 to {@code maxDocs} documents of {@code features} features. */
    public static Gen<ListCase> cases(int maxLists, int maxDocs, int features) {
        if (maxLists < 1 || maxDocs < 1 || features < 1) {
            throw new IllegalArgumentException("need maxLists, maxDocs and features >= 1, got " + maxLists + ", " + maxDocs
                    + ", " + features);
        }
        return in -> draw(in, maxLists, maxDocs, features);
    }

    private static ListCase draw(RandomnessSource in, int maxLists, int maxDocs, int features) {
        // The shape is drawn first and in full, so shrinking one size does not shift the others.
        int lists = (int) in.next(Constraint.between(1, maxLists));
        int[] sizes = new int[maxLists];
        for (int q = 0; q < maxLists; q++) {
            sizes[q] = (int) in.next(Constraint.between(0, maxDocs));
        }
        int[] offsets = new int[lists + 1];
        for (int q = 0; q < lists; q++) {
            offsets[q + 1] = offsets[q] + sizes[q];
        }
        float[] rows = new float[offsets[lists] * features];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = in.next(Constraint.between(-16, 16).withShrinkPoint(0)) / 8f;
        }
        // Fisher-Yates with draws of how far back to swap: all zeros (the shrink target) is the identity.
        int[] perm = new int[offsets[1]];
        for (int i = 0; i < perm.length; i++) {
            perm[i] = i;
        }
        for (int i = perm.length - 1; i > 0; i--) {
            int j = i - (int) in.next(Constraint.between(0, i));
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        return new ListCase(rows, features, offsets, perm);
    }

    /**
     * Each list's scores in the batch equal (within {@code tolerance}, absolute) its scores alone
     * and its scores in the batch with an empty list inserted before every list.
     */
    public static void assertListsAreIndependent(ListScorer scorer, ListCase c, double tolerance) {
        int d = c.features();
        double[] batch = scorer.score(c.rows(), d, c.offsets());
        int[] padded = new int[2 * c.lists() + 1];
        for (int q = 0; q < c.lists(); q++) {
            padded[2 * q + 1] = c.offsets()[q];
            padded[2 * q + 2] = c.offsets()[q + 1];
        }
        double[] withEmpty = scorer.score(c.rows(), d, padded);
        for (int q = 0; q < c.lists(); q++) {
            int from = c.offsets()[q];
            int to = c.offsets()[q + 1];
            double[] alone = scorer.score(Arrays.copyOfRange(c.rows(), from * d, to * d), d, new int[] {0, to - from});
            for (int i = 0; i < to - from; i++) {
                assertEquals(alone[i], batch[from + i], tolerance, "list " + q + ", document " + i
                        + ": its score alone differs from its score in the batch");
                assertEquals(alone[i], withEmpty[from + i], tolerance, "list " + q + ", document " + i
                        + ": an empty list beside it changes its score");
            }
        }
    }

    /**
     * Scoring the batch with list 0's documents permuted ({@code rows'[i] = rows[perm[i]]}) gives
     * list 0 the permuted scores ({@code s'[i] = s[perm[i]]}, within {@code tolerance} absolute:
     * sums may run in another order) and leaves the other lists' scores as they were.
     */
    public static void assertPermutationEquivariant(ListScorer scorer, ListCase c, double tolerance) {
        int d = c.features();
        int[] perm = c.permutation();
        float[] permuted = c.rows().clone();
        for (int i = 0; i < perm.length; i++) {
            System.arraycopy(c.rows(), perm[i] * d, permuted, i * d, d);
        }
        double[] s = scorer.score(c.rows(), d, c.offsets());
        double[] sp = scorer.score(permuted, d, c.offsets());
        for (int i = 0; i < perm.length; i++) {
            assertEquals(s[perm[i]], sp[i], tolerance, "document " + i + " of the permuted list is document " + perm[i]);
        }
        for (int i = perm.length; i < s.length; i++) {
            assertEquals(s[i], sp[i], tolerance, "document " + i + " of another list");
        }
    }
}
