package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The baseline table's cells: difference, both p-values, the mark, and NaN queries left out of both. */
class PairedTestsTest {
    private static final double[] A = {0.81, 0.62, 0.93, 0.74, 0.55, 0.76, 0.97, 0.68, 0.59, 0.8};
    private static final double[] B = {0.70, 0.66, 0.80, 0.71, 0.50, 0.61, 0.90, 0.62, 0.61, 0.72};

    @Test
    void cellHoldsTheMeanDifferenceAndScipysPValues() {
        // scipy 1.17: wilcoxon(A, B).pvalue = 7/512 = 0.013671875, ttest_rel(A, B).pvalue = 0.0104839 (SignificanceTest).
        assertEquals("+0.0620 (W p=0.0137, t p=0.0105)", PairedTests.cell(A, B));
        assertEquals("-0.0620 (W p=0.0137, t p=0.0105)", PairedTests.cell(B, A));
    }

    @Test
    void excludedQueriesLeaveBothSamplesAndMarksFollowTheWilcoxonLevel() {
        double[] a = new double[31];
        double[] b = new double[31];
        for (int q = 0; q < 30; q++) {
            a[q] = 0.5 + q * 0.01;
            b[q] = a[q] - 0.05 - q * 0.001;
        }
        a[30] = Double.NaN;
        b[30] = 1.0;
        String better = PairedTests.cell(a, b);
        assertTrue(better.endsWith(" better") && better.startsWith("+0.0645"), better);
        assertTrue(PairedTests.cell(b, a).endsWith(" worse"), PairedTests.cell(b, a));
        assertEquals("n/a", PairedTests.cell(new double[] {Double.NaN}, new double[] {0.5}));
    }

    @Test
    void tableHasOneRowPerRankerButTheBaseline() {
        double[][][] v = {{A}, {B}, {A}};
        String table = PairedTests.markdown(List.of("x", "base", "y"), 1, List.of("ndcg@10"), v);
        assertEquals(4, table.lines().count(), table);
        assertTrue(table.startsWith("| ranker vs base | "), table);
        assertTrue(table.contains("| x ") && table.contains("| y ") && !table.contains("| base "), table);
    }
}
