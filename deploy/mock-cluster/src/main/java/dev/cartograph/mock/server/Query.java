package dev.cartograph.mock.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The query of a request path: decoded parameters, and the raw query without some of them. Immutable; thread-safe. */
record Query(List<String> rawParameters) {
    Query {
        rawParameters = List.copyOf(rawParameters);
    }

    /** The query of {@code pathAndQuery}, empty without a {@code ?}. */
    static Query of(String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        List<String> parameters = new ArrayList<>();
        if (q >= 0) {
            for (String parameter : pathAndQuery.substring(q + 1).split("&")) {
                if (!parameter.isEmpty()) {
                    parameters.add(parameter);
                }
            }
        }
        return new Query(parameters);
    }

    /** The decoded value of the first parameter called {@code name}; empty text for {@code ?name}. */
    Optional<String> get(String name) {
        return rawParameters.stream()
                .filter(p -> name.equals(decode(key(p))))
                .findFirst()
                .map(p -> p.indexOf('=') < 0 ? "" : decode(p.substring(p.indexOf('=') + 1)));
    }

    /** Whether this is a watch request ({@code watch=true} or {@code watch=1}). */
    boolean isWatch() {
        return get("watch").map(v -> v.equals("true") || v.equals("1")).orElse(false);
    }

    /** {@code ?a=1&b=2} with the parameters called {@code name} left out, still encoded; empty text when none remain. */
    String without(String name) {
        List<String> kept =
                rawParameters.stream().filter(p -> !name.equals(decode(key(p)))).toList();
        return kept.isEmpty() ? "" : "?" + String.join("&", kept);
    }

    private static String key(String parameter) {
        int eq = parameter.indexOf('=');
        return eq < 0 ? parameter : parameter.substring(0, eq);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
