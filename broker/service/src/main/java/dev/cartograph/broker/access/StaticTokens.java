package dev.cartograph.broker.access;

import java.util.ArrayList;
import java.util.List;

/**
 * Callers from a static token file in the Kubernetes shape ({@code --token-auth-file}): one
 * {@code token,user[,uid[,"group1,group2"]]} a line; blank lines and lines starting with {@code #} are
 * skipped. A token is compared with every entry in constant time, so the time taken says nothing about
 * which entry, or how much of one, matched. For development and the local fleet. Immutable, thread-safe.
 */
public final class StaticTokens implements Authenticator {
    private record Entry(BearerToken token, Caller caller) {}

    private final List<Entry> entries;

    private StaticTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads the file's text; {@code source} names it in errors. Throws {@link IllegalArgumentException}
     * naming the line (never its token) when a line is malformed, a token repeats, or there is none.
     */
    public static StaticTokens parse(String text, String source) {
        List<Entry> entries = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            List<String> fields = fields(line);
            String where = source + " line " + (i + 1);
            if (fields.size() < 2
                    || fields.size() > 4
                    || fields.get(0).isBlank()
                    || fields.get(1).isBlank()) {
                throw new IllegalArgumentException(
                        where + ": expected token,user[,uid[,\"group1,group2\"]] (" + fields.size() + " fields)");
            }
            BearerToken token = new BearerToken(fields.get(0));
            if (entries.stream().anyMatch(e -> e.token().matches(token))) {
                throw new IllegalArgumentException(where + ": this token is already on an earlier line");
            }
            List<String> groups = fields.size() == 4
                    ? List.of(fields.get(3).split(",")).stream()
                            .map(String::strip)
                            .filter(g -> !g.isEmpty())
                            .toList()
                    : List.of();
            entries.add(new Entry(token, new Caller(fields.get(1), fields.size() > 2 ? fields.get(2) : "", groups)));
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException(source + " has no tokens");
        }
        return new StaticTokens(entries);
    }

    /** Comma-separated fields; a field in double quotes may hold commas. */
    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(field.toString().strip());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        out.add(field.toString().strip());
        return out;
    }

    @Override
    public Authentication authenticate(BearerToken token) {
        Caller found = null;
        for (Entry e : entries) { // every entry, always: no early exit
            if (e.token().matches(token) && found == null) {
                found = e.caller();
            }
        }
        return found == null
                ? new Authentication.Rejected("the token is not in the broker's token file")
                : new Authentication.Authenticated(found);
    }

    public int size() {
        return entries.size();
    }
}
