package dev.cartograph.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hand counts in {@code ../shared/fixtures/INDEX.md}: per fixture file, the pods per role and the
 * total GPUs a person counted from the spec. Parsed from the markdown table; expected values come
 * from there, never from the code under test.
 */
record FixtureIndex(String file, String kind, Map<String, Long> podsPerRole, long totalGpus, String phaseHint) {
    private static final Pattern ROLE = Pattern.compile("^\\s*([A-Za-z][\\w.\\-]*)\\s+(\\d+)\\b");

    long totalPods() {
        return podsPerRole.values().stream().mapToLong(Long::longValue).sum();
    }

    static List<FixtureIndex> read(Path fixtures) throws IOException {
        List<FixtureIndex> rows = new ArrayList<>();
        for (String line : Files.readAllLines(fixtures.resolve("INDEX.md"))) {
            if (!line.startsWith("| ") || !line.contains(".yaml")) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            // | File | Kind | Source | Status? | Roles | Pods per role | GPUs/pod per role | Total GPUs | Phase | Notes
            // |
            if (cells.length < 11) {
                continue;
            }
            rows.add(new FixtureIndex(
                    cells[1].strip(),
                    cells[2].strip(),
                    roles(cells[5].strip(), cells[6].strip()),
                    Long.parseLong(cells[8].strip()),
                    cells[9].strip()));
        }
        return rows;
    }

    private static final Pattern BARE = Pattern.compile("^\\s*(\\d+)\\b");

    /**
     * A bare count ("3 (parallelism 3, completions 3)") belongs to the row's single role; bare counts
     * "1, 1" zip with the roles "Frontend, VllmDecodeWorker" in order.
     */
    static Map<String, Long> roles(String rolesCell, String podsCell) {
        Matcher bare = BARE.matcher(podsCell);
        if (!bare.find()) {
            return roles(podsCell);
        }
        List<String> names = topLevelParts(rolesCell.replaceAll("\\s*\\(.*?\\)", ""));
        List<String> counts = topLevelParts(podsCell);
        Map<String, Long> out = new LinkedHashMap<>();
        if (names.size() > 1 && names.size() == counts.size()) {
            for (int i = 0; i < names.size(); i++) {
                Matcher n = BARE.matcher(counts.get(i));
                if (n.find()) {
                    out.put(names.get(i).strip(), Long.parseLong(n.group(1)));
                }
            }
            return out;
        }
        return Map.of(rolesCell.replaceAll("\\s*\\(.*", "").strip(), Long.parseLong(bare.group(1)));
    }

    /** "workers 4 (1×4), driver 1 (1×1)" gives workers=4, driver=1; "–" gives none. */
    static Map<String, Long> roles(String cell) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String part : topLevelParts(cell)) {
            Matcher m = ROLE.matcher(part);
            if (m.find()) {
                out.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
            }
        }
        return out;
    }

    private static List<String> topLevelParts(String cell) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        StringBuilder current = new StringBuilder();
        for (char c : cell.toCharArray()) {
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(current.toString());
                current.setLength(0);
                continue;
            }
            if (depth == 0 && c != ')') {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }
}
