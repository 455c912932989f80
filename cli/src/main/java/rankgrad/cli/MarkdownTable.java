package rankgrad.cli;

import java.util.List;

/**
 * A padded Markdown table that also reads as plain text: the first column left-aligned, the others
 * right-aligned, as {@link ComparisonTable} lays out its own.
 */
final class MarkdownTable {
    private MarkdownTable() {
    }

    /** {@code lines.get(0)} is the header; every line has the same number of cells. */
    static String of(List<String[]> lines) {
        int columns = lines.get(0).length;
        int[] width = new int[columns];
        for (String[] line : lines) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], Math.max(4, line[c].length()));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < lines.size(); r++) {
            sb.append('|');
            for (int c = 0; c < columns; c++) {
                String s = lines.get(r)[c];
                String pad = " ".repeat(width[c] - s.length());
                sb.append(' ').append(c == 0 ? s + pad : pad + s).append(" |");
            }
            sb.append('\n');
            if (r == 0) {
                sb.append('|');
                for (int c = 0; c < columns; c++) {
                    sb.append(c == 0 ? ":" + "-".repeat(width[c] + 1) : "-".repeat(width[c] + 1) + ":").append('|');
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
