package rankgrad.ltr.rank;

/**
 * Gains and discounts of the metrics, exact and fast on the common inputs: integer grades and
 * integer ranks. Metric evaluation is O(m) per query against the O(m^2) pair work, but a
 * transcendental call per document still showed up in profiles of small queries.
 */
final class Gains {
    static final double LN2 = Math.log(2);
    /** log2(n) for n &lt; TABLE. */
    private static final int TABLE = 1 << 14;
    private static final double[] LOG2 = new double[TABLE];
    /** Grades 0..MAX_GRADE take the counting path of {@link #idealDcg}; others sort. */
    static final int MAX_GRADE = 30;

    static {
        for (int n = 1; n < TABLE; n++) {
            LOG2[n] = Math.log(n) / LN2;
        }
    }

    private Gains() {
    }

    /** 2^y - 1, exact for integer grades. */
    static double gain(float y) {
        int g = (int) y;
        return g == y && g <= MAX_GRADE ? (1 << g) - 1 : Math.pow(2.0, y) - 1.0;
    }

    /** log2(r + 1), from a table when r is a small integer (exact ranks). */
    static double log2OnePlus(double r) {
        int n = (int) r + 1;
        return n - 1 == r && n < TABLE ? LOG2[n] : Math.log(r + 1.0) / LN2;
    }

    /**
     * The ideal DCG over all m labels: sum_p g_(p) / log2(p + 1) with gains sorted descending.
     * Integer grades up to {@link #MAX_GRADE} are counted instead of sorted (O(m)).
     */
    static double idealDcg(float[] labels, int from, int m) {
        int[] count = new int[MAX_GRADE + 1];
        boolean integral = true;
        for (int i = 0; i < m && integral; i++) {
            float y = labels[from + i];
            int g = (int) y;
            if (g == y && g <= MAX_GRADE) {
                count[g]++;
            } else {
                integral = false;
            }
        }
        double idcg = 0;
        if (integral) {
            int position = 1;
            for (int g = MAX_GRADE; g >= 1; g--) {
                for (int c = 0; c < count[g]; c++) {
                    idcg += ((1 << g) - 1) / log2OnePlus(position++);
                }
            }
            return idcg;
        }
        double[] ideal = new double[m];
        for (int i = 0; i < m; i++) {
            ideal[i] = gain(labels[from + i]);
        }
        java.util.Arrays.sort(ideal);
        for (int p = 0; p < m; p++) {
            idcg += ideal[m - 1 - p] / log2OnePlus(p + 1);
        }
        return idcg;
    }
}
