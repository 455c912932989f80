package rankgrad.ltr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RankingTest {

    @Test
    void ordersByScoreDescendingWithStableTies() {
        float[] s = {0.5f, 2f, 0.5f, -1f, 2f};
        assertArrayEquals(new int[] {1, 4, 0, 2, 3}, Ranking.order(s, 0, 5, null));
        assertArrayEquals(new int[] {3, 1, 4, 5, 2}, Ranking.ranks(Ranking.order(s, 0, 5, null)));
    }

    @Test
    void signedZerosTieAndFollowTheKeys() {
        float[] s = {-0.0f, 0.0f, -0.0f};
        assertArrayEquals(new int[] {2, 0, 1}, Ranking.order(s, 0, 3, new int[] {1, 2, 0}));
        double[] d = {-0.0, 0.0, -0.0};
        assertArrayEquals(new int[] {2, 0, 1}, Ranking.order(d, 0, 3, new int[] {1, 2, 0}));
    }

    @Test
    void floatAndDoubleOrdersAgreeOnExtremes() {
        float[] s = {Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, -Float.MIN_VALUE, 0f, 1e-30f};
        double[] d = new double[s.length];
        for (int i = 0; i < s.length; i++) {
            d[i] = s[i];
        }
        assertArrayEquals(new int[] {0, 5, 2, 4, 3, 1}, Ranking.order(s, 0, 6, null));
        assertArrayEquals(Ranking.order(s, 0, 6, null), Ranking.order(d, 0, 6, null));
    }

    @Test
    void rejectsNaNAndBadKeys() {
        assertThrows(IllegalArgumentException.class, () -> Ranking.order(new float[] {1f, Float.NaN}, 0, 2, null));
        assertThrows(IllegalArgumentException.class, () -> Ranking.order(new float[] {1f, 2f}, 0, 2, new int[] {0, 0}));
    }
}
