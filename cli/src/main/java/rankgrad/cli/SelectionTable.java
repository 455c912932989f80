package rankgrad.cli;

import java.util.List;
import java.util.Locale;

/**
 * {@code compare}'s table: a row chosen on validation, reported on test. Beside the test
 * {@link ComparisonTable} it holds the same rows evaluated on the validation queries: in Markdown
 * one column, the selection metric on validation, where the best mean is bold (the row the rule
 * selects); the test cells are never bold (a reader choosing from the table would otherwise choose
 * on test) but keep the {@value ComparisonTable#WORSE} marker. The CSV keeps the test table's
 * columns and appends each metric's validation mean and interval and whether the row is selected.
 */
final class SelectionTable {
    private final String selection;
    private final ComparisonTable selected;
    private final ComparisonTable valid;
    private final ComparisonTable test;
    private final double[] seconds;

    /**
     * @param selection the selection metric's name, e.g. {@code ndcg@5}
     * @param selected the rows on the validation queries, one column: the selection metric
     * @param valid the rows on the validation queries, the test table's columns
     * @param test the rows on the test queries
     * @param seconds per row, the wall time of its runs
     */
    SelectionTable(String selection, ComparisonTable selected, ComparisonTable valid, ComparisonTable test, double[] seconds) {
        if (!selected.rows().equals(test.rows()) || !valid.rows().equals(test.rows()) || !valid.columns().equals(test.columns())
                || selected.columns().size() != 1 || seconds.length != test.rows().size()) {
            throw new IllegalArgumentException("the validation and test tables must have the same rows and columns");
        }
        this.selection = selection;
        this.selected = selected;
        this.valid = valid;
        this.test = test;
        this.seconds = seconds.clone();
    }

    /** Whether {@code row} has the best validation mean of the selection metric (ties: every tied row). */
    boolean isSelected(int row) {
        return selected.cell(row, 0).best();
    }

    /** Row name | valid METRIC (best bold) | test columns (never bold) | seconds. */
    String markdown() {
        List<String> rows = test.rows();
        List<String> columns = test.columns();
        String[][] text = new String[rows.size() + 1][columns.size() + 3];
        text[0][0] = test.rowHeader();
        text[0][1] = "valid " + selection;
        for (int c = 0; c < columns.size(); c++) {
            text[0][c + 2] = "test " + columns.get(c);
        }
        text[0][columns.size() + 2] = "seconds";
        for (int r = 0; r < rows.size(); r++) {
            text[r + 1][0] = rows.get(r);
            ComparisonTable.Cell v = selected.cell(r, 0);
            String shown = String.format(Locale.ROOT, "%.4f ± %.4f", v.mean(), v.halfWidth()).replace("NaN", "n/a");
            text[r + 1][1] = v.best() ? "**" + shown + "**" : shown;
            for (int c = 0; c < columns.size(); c++) {
                text[r + 1][c + 2] = ComparisonTable.cellText(test.cell(r, c), false);
            }
            text[r + 1][columns.size() + 2] = String.format(Locale.ROOT, "%.1f", seconds[r]);
        }
        return ComparisonTable.layout(text);
    }

    /** What the marks mean, starting with the selection rule. */
    String legend() {
        return "Selected on validation " + selection + ": each run's epoch, and the row to choose; best validation in bold"
                + " (the test columns are never bold: choose on validation, report on test). Each cell: mean ± half-width of"
                + " the 95% Student-t confidence interval over the validation or test queries. " + ComparisonTable.WORSE
                + ": significantly worse than the test column's best mean (two-sided Wilcoxon signed-rank test over paired"
                + " per-query values, p < " + ComparisonTable.ALPHA + ").";
    }

    /**
     * The test table's CSV ({@code ROW,metric,mean,ci95,p_vs_best,worse_than_best,seconds}) with
     * {@code valid_mean,valid_ci95,selected} appended: the metric on the validation queries and
     * whether the row has the best validation mean of the selection metric.
     */
    String csv() {
        List<String> lines = test.withSeconds(seconds).csv().lines().toList();
        StringBuilder sb = new StringBuilder(lines.get(0)).append(",valid_mean,valid_ci95,selected\n");
        int columns = test.columns().size();
        for (int i = 1; i < lines.size(); i++) {
            int r = (i - 1) / columns;
            ComparisonTable.Cell v = valid.cell(r, (i - 1) % columns);
            sb.append(lines.get(i)).append(',').append(ComparisonTable.csvNumber("%.6f", v.mean())).append(',')
                    .append(ComparisonTable.csvNumber("%.6f", v.halfWidth())).append(',').append(isSelected(r)).append('\n');
        }
        return sb.toString();
    }
}
