package dev.cartograph.cli;

import java.util.List;

/** Left-aligned columns separated by two spaces, as kubectl prints tables. Pure. */
final class Columns {
    private Columns() {}

    static String render(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].codePointCount(0, row[c].length()));
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row[c]);
                if (c < columns - 1) {
                    line.append(" ".repeat(width[c] - row[c].codePointCount(0, row[c].length()) + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
