package dev.cartograph.cli;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** What the CLI tests' stand-in brokers share: the token they accept, and the broker's 401 and 403 answers. */
final class StandInBroker {
    static final String TOKEN = "test-token";
    /** A caller the stand-in knows but allows nothing but the fleet. */
    static final String READER_TOKEN = "reader-token";
    /** carto's environment with the token the stand-ins accept. */
    static final Map<String, String> WITH_TOKEN = Map.of(BrokerOptions.TOKEN_ENV, TOKEN);

    private StandInBroker() {}

    /** Answers 401 as the broker does and says true, unless the request carries a token the stand-in knows. */
    static boolean refuses(HttpExchange exchange) throws IOException {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (("Bearer " + TOKEN).equals(auth) || ("Bearer " + READER_TOKEN).equals(auth)) {
            return false;
        }
        exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"cartograph-broker\"");
        answer(
                exchange,
                401,
                "{\"error\":{\"code\":\"unauthorized\",\"message\":\"the token is not in the broker's token file\"}}");
        return true;
    }

    /** Answers 403 as the broker does for a reader asking for more, and says true. */
    static boolean forbids(HttpExchange exchange, String verb, String namespace) throws IOException {
        if (!("Bearer " + READER_TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            return false;
        }
        answer(exchange, 403, """
                {"error":{"code":"forbidden","message":"reader may not %s pytorchjobs.kubeflow.org in namespace %s",
                 "verb":"%s","group":"kubeflow.org","resource":"pytorchjobs","namespace":"%s"}}
                """.formatted(verb, namespace, verb, namespace));
        return true;
    }

    static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
