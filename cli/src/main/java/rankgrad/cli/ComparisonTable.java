package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import rankgrad.ltr.eval.Significance;

/**
 * The comparison of rankers over the same queries, as in Yu et al. Tables 4-7: per loss (row) and
 * metric (column) the mean over queries with its 95% Student-t confidence half-width
 * (mean +- t_{0.975, n-1} s / sqrt(n)), the best mean of each column in bold, and a marker on
 * results whose mean is below the column's best and whose paired per-query values differ from the
 * best row's by the two-sided Wilcoxon signed-rank test at p &lt; {@value #ALPHA}.
 *
 * <p>Queries whose value is NaN (excluded: no relevant document) for any row of a column are left
 * out of that column for every row, so that the test stays paired. When several rows share the
 * best mean, all are bold and the first of them is the reference of the test.
 */
final class ComparisonTable {
    /** Significance level of the "worse than the best" marker (Yu et al. Sec. 7.1). */
    static final double ALPHA = 0.01;
    /** Confidence level of the intervals. */
    static final double LEVEL = 0.95;
    /** The marker appended to a result significantly worse than the column's best. */
    static final String WORSE = "*";

    /**
     * One table cell.
     *
     * @param mean mean over the column's queries
     * @param halfWidth 95% confidence half-width (NaN with a single query)
     * @param queries how many queries the mean is over
     * @param pVsBest Wilcoxon p-value against the column's reference best row (NaN for that row)
     * @param best whether the mean equals the column's maximum
     * @param worse whether the mean is below the best and p &lt; {@link #ALPHA}
     */
    record Cell(double mean, double halfWidth, int queries, double pVsBest, boolean best, boolean worse) {
    }

    private final String rowHeader;
    private final List<String> rows;
    private final List<String> columns;
    private final Cell[][] cells;
    /** Per row, the seconds its runs took, or null for no seconds column. */
    private double[] seconds;

    private ComparisonTable(String rowHeader, List<String> rows, List<String> columns, Cell[][] cells) {
        this.rowHeader = rowHeader;
        this.rows = rows;
        this.columns = columns;
        this.cells = cells;
    }

    /**
     * Builds the table from per-query values {@code perQuery[row][column][query]}: every row must
     * hold the same queries, in the same order, for a column.
     */
    static ComparisonTable of(List<String> rows, List<String> columns, double[][][] perQuery) {
        return of("loss", rows, columns, perQuery);
    }

    /** {@link #of(List, List, double[][][])} with {@code rowHeader} heading the first column (and the CSV's). */
    static ComparisonTable of(String rowHeader, List<String> rows, List<String> columns, double[][][] perQuery) {
        if (rows.isEmpty() || columns.isEmpty()) {
            throw new IllegalArgumentException("a comparison needs at least one row and one column");
        }
        if (perQuery.length != rows.size()) {
            throw new IllegalArgumentException(perQuery.length + " rows of values for " + rows.size() + " names");
        }
        Cell[][] cells = new Cell[rows.size()][columns.size()];
        for (int c = 0; c < columns.size(); c++) {
            double[][] values = pairedColumn(rows, columns.get(c), perQuery, c);
            Significance.Interval[] intervals = new Significance.Interval[rows.size()];
            int reference = 0;
            for (int r = 0; r < rows.size(); r++) {
                intervals[r] = Significance.meanInterval(values[r], LEVEL);
                if (intervals[r].mean() > intervals[reference].mean()) {
                    reference = r;
                }
            }
            double bestMean = intervals[reference].mean();
            for (int r = 0; r < rows.size(); r++) {
                double p = r == reference ? Double.NaN : Significance.wilcoxonSignedRank(values[r], values[reference]);
                double mean = intervals[r].mean();
                cells[r][c] = new Cell(mean, intervals[r].halfWidth(), values[r].length, p, mean == bestMean,
                        mean < bestMean && p < ALPHA);
            }
        }
        return new ComparisonTable(rowHeader, List.copyOf(rows), List.copyOf(columns), cells);
    }

    /** The column's values of every row, restricted to the queries no row excludes. */
    private static double[][] pairedColumn(List<String> rows, String column, double[][][] perQuery, int c) {
        int n = -1;
        for (int r = 0; r < rows.size(); r++) {
            if (perQuery[r].length <= c) {
                throw new IllegalArgumentException(rows.get(r) + " has no values for " + column);
            }
            if (n >= 0 && perQuery[r][c].length != n) {
                throw new IllegalArgumentException(column + ": " + rows.get(r) + " has " + perQuery[r][c].length
                        + " queries, " + rows.get(0) + " has " + n + "; the rows must be evaluated on the same queries");
            }
            n = perQuery[r][c].length;
        }
        List<Integer> kept = new ArrayList<>();
        for (int q = 0; q < n; q++) {
            boolean all = true;
            for (double[][] row : perQuery) {
                all &= !Double.isNaN(row[c][q]);
            }
            if (all) {
                kept.add(q);
            }
        }
        if (kept.isEmpty()) {
            throw new IllegalArgumentException(column + ": no query has a value for every row (all " + n
                    + " excluded, e.g. no relevant document)");
        }
        double[][] out = new double[rows.size()][kept.size()];
        for (int r = 0; r < rows.size(); r++) {
            for (int i = 0; i < kept.size(); i++) {
                out[r][i] = perQuery[r][c][kept.get(i)];
            }
        }
        return out;
    }

    /** Adds a last column with each row's seconds (the wall time of its training runs). */
    ComparisonTable withSeconds(double[] perRow) {
        if (perRow.length != rows.size()) {
            throw new IllegalArgumentException(perRow.length + " times for " + rows.size() + " rows");
        }
        seconds = perRow.clone();
        return this;
    }

    Cell cell(int row, int column) {
        return cells[row][column];
    }

    String rowHeader() {
        return rowHeader;
    }

    List<String> rows() {
        return rows;
    }

    List<String> columns() {
        return columns;
    }

    /** The numbers of queries the columns are over, e.g. "400" or "398-400" when exclusions differ. */
    String queries() {
        TreeSet<Integer> counts = new TreeSet<>();
        for (Cell[] row : cells) {
            for (Cell cell : row) {
                counts.add(cell.queries());
            }
        }
        return counts.first().equals(counts.last()) ? counts.first().toString() : counts.first() + "-" + counts.last();
    }

    /**
     * A Markdown table, one row per ranker (loss, network x loss, run): {@code mean ± half-width}, bold where the mean is the
     * column's best, {@value #WORSE} after it where significantly worse. Cells are padded so the
     * table also reads as plain text.
     */
    String markdown() {
        int extra = seconds == null ? 0 : 1;
        String[][] text = new String[rows.size() + 1][columns.size() + 1 + extra];
        text[0][0] = rowHeader;
        for (int c = 0; c < columns.size(); c++) {
            text[0][c + 1] = columns.get(c);
        }
        if (seconds != null) {
            text[0][columns.size() + 1] = "seconds";
            for (int r = 0; r < rows.size(); r++) {
                text[r + 1][columns.size() + 1] = String.format(Locale.ROOT, "%.1f", seconds[r]);
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            text[r + 1][0] = rows.get(r);
            for (int c = 0; c < columns.size(); c++) {
                text[r + 1][c + 1] = cellText(cells[r][c], true);
            }
        }
        return layout(text);
    }

    /** A cell as the Markdown table shows it: {@code mean ± half-width}, bold (where asked) when best, else the marker when worse. */
    static String cellText(Cell cell, boolean boldBest) {
        String v = fmt(cell.mean()) + " ± " + fmt(cell.halfWidth());
        return boldBest && cell.best() ? "**" + v + "**" : cell.worse() ? v + " " + WORSE : v;
    }

    /**
     * A Markdown table of {@code text} (row 0 the header): the first column left-aligned, the
     * others right-aligned, every cell padded to its column's width so that it also reads as text.
     */
    static String layout(String[][] text) {
        int[] width = new int[text[0].length];
        for (String[] line : text) {
            for (int c = 0; c < line.length; c++) {
                width[c] = Math.max(width[c], Math.max(4, line[c].length()));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < text.length; r++) {
            sb.append('|');
            for (int c = 0; c < width.length; c++) {
                String s = text[r][c];
                sb.append(' ').append(c == 0 ? s + " ".repeat(width[c] - s.length()) : " ".repeat(width[c] - s.length()) + s)
                        .append(" |");
            }
            sb.append('\n');
            if (r == 0) {
                sb.append('|');
                for (int c = 0; c < width.length; c++) {
                    sb.append(c == 0 ? ":" + "-".repeat(width[c] + 1) : "-".repeat(width[c] + 1) + ":").append('|');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** What the table's marks mean. */
    static String legend() {
        return "Each cell: mean ± half-width of the 95% Student-t confidence interval over the test queries."
                + " Bold: the best mean of the column. " + WORSE + ": significantly worse than the column's best"
                + " (two-sided Wilcoxon signed-rank test over paired per-query values, p < " + ALPHA + ").";
    }

    /**
     * One line per row and column: {@code loss,metric,mean,ci95,p_vs_best,worse_than_best}; NaN
     * (the best row's p-value, a single query's interval) is written as an empty field.
     */
    String csv() {
        StringBuilder sb = new StringBuilder(rowHeader + ",metric,mean,ci95,p_vs_best,worse_than_best"
                + (seconds == null ? "" : ",seconds") + "\n");
        for (int r = 0; r < rows.size(); r++) {
            for (int c = 0; c < columns.size(); c++) {
                Cell cell = cells[r][c];
                sb.append(rows.get(r)).append(',').append(columns.get(c)).append(',').append(csvNumber("%.6f", cell.mean()))
                        .append(',').append(csvNumber("%.6f", cell.halfWidth())).append(',')
                        .append(csvNumber("%.6g", cell.pVsBest())).append(',').append(cell.worse())
                        .append(seconds == null ? "" : String.format(Locale.ROOT, ",%.3f", seconds[r])).append('\n');
            }
        }
        return sb.toString();
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.4f", v);
    }

    static String csvNumber(String format, double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, format, v);
    }
}
