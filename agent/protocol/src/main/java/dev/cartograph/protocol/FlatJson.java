package dev.cartograph.protocol;

import dev.cartograph.protocol.NodeParts.Text;
import java.nio.charset.StandardCharsets;

/**
 * A scanner over one JSON object's bytes for {@link NodeRecordReader}: field names and plain values (ASCII strings
 * without escapes, whole numbers, {@code true}/{@code false}) are read, an object or array value is handed over as
 * its text ({@link Text}, hashed on the way), to be parsed by Jackson the first time that text is seen. Anything
 * else — an escape, a non-ASCII or control character in a plain string, a fraction, {@code null} for a known field,
 * white space other than JSON's, trailing bytes — is {@link NotPlain}: the caller reads the record with Jackson, which says what is
 * wrong. So what it accepts, it reads as Jackson does; it is only faster (no tokens inside the parts, no parser
 * set-up), which matters to a broker reading tens of thousands of node records a second. Not thread-safe: one
 * record.
 */
final class FlatJson {
    /** The record is not one this scanner reads: read it with Jackson. */
    static final class NotPlain extends RuntimeException {
        NotPlain() {
            super(null, null, false, false);
        }
    }

    private static final NotPlain NOT_PLAIN = new NotPlain();
    private static final int MAX_DIGITS = 18;

    private final byte[] b;
    private int i;
    /** Where in the known names the next field's name is looked for first: after the last one found. */
    private int next;

    FlatJson(byte[] bytes) {
        this.b = bytes;
    }

    /** Consumes '{'; true when the object has no field. */
    boolean open() {
        ws();
        expect('{');
        ws();
        if (peek() == '}') {
            i++;
            return true;
        }
        return false;
    }

    /**
     * The next field's name (consuming it and its ':'), or null at the object's end (then nothing may follow); a name
     * among {@code known} is that very string (no copy is made).
     */
    String name(boolean first, String[] known) {
        ws();
        if (!first) {
            if (peek() == '}') {
                i++;
                ws();
                if (i != b.length) {
                    throw NOT_PLAIN;
                }
                return null;
            }
            expect(',');
            ws();
        }
        String name = known(known);
        ws();
        expect(':');
        ws();
        return name;
    }

    /**
     * A string value as {@link #text()} reads it; one of {@code known} when it is one of them (at most one can be:
     * the closing quote follows it), looked for from the one after the last found, as fields come in their order.
     */
    private String known(String[] known) {
        int from = i + 1;
        for (int j = 0; j < known.length; j++) {
            int at = (next + j) % known.length;
            String k = known[at];
            int n = k.length();
            int end = from + n;
            if (end < b.length && b[end] == '"' && same(k, from)) {
                i = end + 1;
                next = at + 1;
                return k;
            }
        }
        return text();
    }

    private boolean same(String ascii, int at) {
        if (at < 1 || b[at - 1] != '"') {
            return false;
        }
        for (int k = 0; k < ascii.length(); k++) {
            if (b[at + k] != ascii.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** A string value: printable ASCII, no escapes. */
    String text() {
        expect('"');
        int from = i;
        while (i < b.length && b[i] != '"') {
            byte c = b[i];
            if (c < 0x20 || c == '\\') { // negative: non-ASCII, which Jackson checks as UTF-8
                throw NOT_PLAIN;
            }
            i++;
        }
        expect('"');
        return new String(b, from, i - 1 - from, StandardCharsets.ISO_8859_1);
    }

    /** A string value as {@link #text()} reads it; {@code same} itself (not a copy) when it is that text. */
    String text(String same) {
        if (same != null) {
            int end = i + 1 + same.length();
            if (end < b.length && b[end] == '"' && same(same, i + 1)) {
                i = end + 1;
                return same;
            }
        }
        return text();
    }

    /** A whole number of at most {@value #MAX_DIGITS} digits, without leading zeros. */
    long number() {
        boolean negative = peek() == '-';
        if (negative) {
            i++;
        }
        int from = i;
        long n = 0;
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            n = n * 10 + (b[i] - '0');
            i++;
        }
        int digits = i - from;
        if (digits == 0 || digits > MAX_DIGITS || (digits > 1 && b[from] == '0')) {
            throw NOT_PLAIN;
        }
        byte next = peek();
        if (next == '.' || next == 'e' || next == 'E') {
            throw NOT_PLAIN;
        }
        return negative ? -n : n;
    }

    boolean bool() {
        if (literal("true")) {
            return true;
        }
        if (literal("false")) {
            return false;
        }
        throw NOT_PLAIN;
    }

    /** The text of an object ('{') or array ('[') value, as {@code open} asks, up to its matching close. */
    Text part(char open) {
        if (peek() != open) {
            throw NOT_PLAIN;
        }
        int from = i;
        int depth = 0;
        int hash = 1;
        boolean inString = false;
        while (i < b.length) {
            byte c = b[i++];
            hash = 31 * hash + c;
            if (inString) {
                if (c == '\\' && i < b.length) {
                    hash = 31 * hash + b[i++];
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return new Text(b, from, i, hash);
            }
        }
        throw NOT_PLAIN;
    }

    /**
     * Skips a value of a field this build does not write; an object or array is handed over to be checked (as
     * Jackson would when skipping it), null otherwise.
     */
    Text skip() {
        byte c = peek();
        if (c == '{' || c == '[') {
            return part((char) c);
        }
        if (c == '"') {
            text();
        } else if (c == 't' || c == 'f') {
            bool();
        } else if (!literal("null")) {
            number();
        }
        return null;
    }

    private boolean literal(String word) {
        int n = word.length();
        if (i + n > b.length) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (b[i + k] != word.charAt(k)) {
                return false;
            }
        }
        i += n;
        return true;
    }

    private byte peek() {
        return i < b.length ? b[i] : 0;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw NOT_PLAIN;
        }
        i++;
    }

    private void ws() {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
    }
}
