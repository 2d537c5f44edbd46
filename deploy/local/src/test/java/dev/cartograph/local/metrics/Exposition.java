package dev.cartograph.local.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus text exposition (format 0.0.4), read strictly enough for a test: every line is a {@code # HELP}, a
 * {@code # TYPE} with a known type, or a sample whose family has a TYPE line before it and whose suffix fits that
 * type; label values unescaped. Parsing fails with the line that does not fit.
 */
record Exposition(Map<String, String> types, List<Sample> samples) {
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") .*");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");
    private static final Map<String, Set<String>> SUFFIXES = Map.of(
            "counter", Set.of("_total", "_created", ""),
            "gauge", Set.of(""),
            "histogram", Set.of("_bucket", "_count", "_sum", "_created"),
            "summary", Set.of("_count", "_sum", "_created", ""),
            "untyped", Set.of(""));

    record Sample(String name, Map<String, String> labels, double value) {}

    static Exposition parse(String text) {
        Map<String, String> types = new HashMap<>();
        List<Sample> samples = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher m;
            if ((m = TYPE.matcher(line)).matches()) {
                if (types.put(m.group(1), m.group(2)) != null) {
                    throw new IllegalArgumentException("line " + n + ": second TYPE for " + m.group(1));
                }
            } else if (HELP.matcher(line).matches()) {
                continue;
            } else if (line.startsWith("#")) {
                throw new IllegalArgumentException("line " + n + ": not HELP or TYPE: " + line);
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                String name = m.group(1);
                if (family(name, types).isEmpty()) {
                    throw new IllegalArgumentException("line " + n + ": no TYPE before sample " + name);
                }
                samples.add(new Sample(name, labels(m.group(3), n), value(m.group(4), n)));
            } else {
                throw new IllegalArgumentException("line " + n + ": not a Prometheus text line: " + line);
            }
        }
        return new Exposition(types, samples);
    }

    /** The family a sample belongs to: a TYPE name it is, or extends by a suffix its type allows. */
    static Optional<String> family(String sample, Map<String, String> types) {
        for (Map.Entry<String, String> t : types.entrySet()) {
            for (String suffix : SUFFIXES.get(t.getValue())) {
                if (sample.equals(t.getKey() + suffix)) {
                    return Optional.of(t.getKey());
                }
            }
        }
        return Optional.empty();
    }

    private static Map<String, String> labels(String body, int n) {
        Map<String, String> out = new TreeMap<>();
        if (body == null || body.isEmpty()) {
            return out;
        }
        Matcher m = LABEL.matcher(body);
        int at = 0;
        while (at < body.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("line " + n + ": bad labels at: " + body.substring(at));
            }
            out.put(
                    m.group(1),
                    m.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
            at = m.end();
        }
        return out;
    }

    private static double value(String v, int n) {
        return switch (v) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + n + ": bad value " + v);
                }
            }
        };
    }

    /** Every sample named {@code name} whose labels include {@code labels}. */
    List<Sample> find(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }

    /** The value of the one sample named {@code name} with exactly {@code labels}, if there is one. */
    Optional<Double> value(String name, Map<String, String> labels) {
        return samples.stream()
                .filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .map(Sample::value)
                .findFirst();
    }
}
