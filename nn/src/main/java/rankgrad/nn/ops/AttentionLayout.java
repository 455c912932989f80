package rankgrad.nn.ops;

import java.util.Arrays;
import rankgrad.autodiff.Tensor;

/**
 * Where the documents of each list (query) of a ragged batch sit, and where their attention scores
 * go: list q owns rows {@code offsets[q] .. offsets[q+1]-1} of the N x width input, and for each of
 * the {@code heads} heads an m_q x m_q block of scores, m_q = offsets[q+1] - offsets[q]. The flat
 * score vector holds, list after list, head after head, the m_q rows of m_q scores:
 *
 * <pre>
 *   index(q, h, i, j) = blockStart(q) + (h m_q + i) m_q + j,   blockStart(q) = heads sum_{p &lt; q} m_p^2
 * </pre>
 *
 * There is no padding and no mask: a score between documents of different lists has no slot, so
 * nothing can attend across lists, and the work is exactly heads sum_q m_q^2.
 *
 * @param offsets list boundaries, offsets[0] = 0, non-decreasing, last = N (copied)
 * @param heads attention heads (each reads width / heads columns)
 */
public record AttentionLayout(int[] offsets, int heads) {
    public AttentionLayout {
        offsets = offsets.clone();
        if (offsets.length < 1 || offsets[0] != 0) {
            throw new IllegalArgumentException("list offsets must start at 0, got " + Arrays.toString(offsets));
        }
        long scores = 0;
        for (int q = 0; q + 1 < offsets.length; q++) {
            int m = offsets[q + 1] - offsets[q];
            if (m < 0) {
                throw new IllegalArgumentException("list offsets must not decrease, got " + offsets[q] + " then "
                        + offsets[q + 1]);
            }
            scores += (long) m * m;
        }
        if (heads < 1) {
            throw new IllegalArgumentException("attention needs at least one head, got " + heads);
        }
        if (scores * heads > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the lists hold " + scores * heads + " attention scores, more than one"
                    + " array holds; use fewer or shorter lists per batch");
        }
    }

    /** One list of {@code docs} documents. */
    public static AttentionLayout single(int docs, int heads) {
        return new AttentionLayout(new int[] {0, docs}, heads);
    }

    @Override
    public int[] offsets() {
        return offsets.clone();
    }

    /** Number of lists. */
    public int lists() {
        return offsets.length - 1;
    }

    /** Number of documents, N. */
    public int docs() {
        return offsets[offsets.length - 1];
    }

    /** First row of list q. */
    public int start(int q) {
        return offsets[q];
    }

    /** Documents of list q, m_q. */
    public int size(int q) {
        return offsets[q + 1] - offsets[q];
    }

    /** Index of list q's first score. */
    public int blockStart(int q) {
        int at = 0;
        for (int p = 0; p < q; p++) {
            at += heads * size(p) * size(p);
        }
        return at;
    }

    /** Index of each list's first score, plus the total at the end (lists + 1 entries). */
    public int[] blockStarts() {
        int[] b = new int[offsets.length];
        for (int q = 0; q < lists(); q++) {
            b[q + 1] = b[q] + heads * size(q) * size(q);
        }
        return b;
    }

    /** Length of the flat score vector, heads sum_q m_q^2. */
    public int scoreCount() {
        return blockStarts()[lists()];
    }

    /**
     * Where each softmax row of the scores starts (heads x N rows, list by list, head by head),
     * plus the end: the row boundaries for {@link RaggedSoftmax}.
     */
    public int[] rowStarts() {
        int[] rows = new int[heads * docs() + 1];
        int r = 0;
        int at = 0;
        for (int q = 0; q < lists(); q++) {
            int m = size(q);
            for (int i = 0; i < heads * m; i++) {
                rows[r++] = at;
                at += m;
            }
        }
        rows[r] = at;
        return rows;
    }

    /** Checks that {@code x} is a docs() x width matrix whose width splits into the heads. */
    void checkInput(Tensor x, String what) {
        if (x.rank() != 2 || x.rows() != docs()) {
            throw new IllegalArgumentException(what + " must be a matrix of " + docs() + " rows (one per document), got"
                    + " shape " + Arrays.toString(x.shape()));
        }
        if (x.cols() % heads != 0) {
            throw new IllegalArgumentException(what + " has " + x.cols() + " columns, not a multiple of " + heads
                    + " heads");
        }
    }

    /**
     * Checks that {@code others} have the width and dtype of {@code first}; {@code names} names them
     * all in the message ("Q and K").
     */
    static void checkAlike(String names, Tensor first, Tensor... others) {
        for (Tensor t : others) {
            if (t.cols() != first.cols() || t.dtype() != first.dtype()) {
                throw new IllegalArgumentException(names + " must have one width and dtype, got " + first.cols() + " "
                        + first.dtype() + " and " + t.cols() + " " + t.dtype());
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AttentionLayout l && heads == l.heads && Arrays.equals(offsets, l.offsets);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(offsets) + heads;
    }

    @Override
    public String toString() {
        return "AttentionLayout[offsets=" + Arrays.toString(offsets) + ", heads=" + heads + "]";
    }
}
