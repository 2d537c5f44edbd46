package dev.cartograph.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How a command reaches the broker's REST API: its address ({@code --broker URL}, else
 * {@code $CARTOGRAPH_BROKER_URL}) and the bearer token it sends ({@code --token-file FILE}, else
 * {@code $CARTOGRAPH_TOKEN}). One mixin for every command that talks to a broker. The environment is
 * the one {@link Carto} was started with.
 */
final class BrokerOptions {
    static final String URL_ENV = "CARTOGRAPH_BROKER_URL";
    static final String TOKEN_ENV = "CARTOGRAPH_TOKEN";

    @Option(
            names = "--broker",
            paramLabel = "URL",
            description = "the broker's REST address, e.g. http://127.0.0.1:8080 (default: $" + URL_ENV + ")")
    String url;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description = "a file holding the broker API's bearer token (default: the token in $" + TOKEN_ENV
                    + "; the local fleet writes target/local-fleet/broker.token)")
    Path tokenFile;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private Map<String, String> env() {
        Object root = command.root().userObject();
        return root instanceof Carto c ? c.env() : Map.of();
    }

    /** True when {@code --broker} was given on the command line (not taken from the environment). */
    boolean given() {
        return url != null && !url.isBlank();
    }

    /** The broker's address, from {@code --broker} or the environment. */
    Optional<String> url() {
        return given()
                ? Optional.of(url)
                : Optional.ofNullable(env().get(URL_ENV)).filter(u -> !u.isBlank());
    }

    /** A client of the broker at {@link #url()} that sends the token; a {@link BrokerApi.Failure} saying what to do when there is none. */
    BrokerApi api() throws BrokerApi.Failure {
        String address =
                url().orElseThrow(() -> new BrokerApi.Failure(Carto.UNREADABLE, "give --broker URL or set " + URL_ENV));
        return new BrokerApi(address, token());
    }

    private String token() throws BrokerApi.Failure {
        if (tokenFile != null) {
            String t;
            try {
                t = Files.readString(tokenFile).strip();
            } catch (IOException e) {
                throw new BrokerApi.Failure(Carto.UNREADABLE, "--token-file " + tokenFile + " cannot be read: " + e);
            }
            if (t.isEmpty() || t.contains("\n")) {
                throw new BrokerApi.Failure(
                        Carto.UNREADABLE, "--token-file " + tokenFile + " must hold one token on one line");
            }
            return t;
        }
        String t = env().getOrDefault(TOKEN_ENV, "").strip();
        if (t.isEmpty()) {
            throw new BrokerApi.Failure(
                    Carto.ACCESS_DENIED,
                    "no token for the broker: set " + TOKEN_ENV + " or give --token-file FILE (the local fleet's is "
                            + "in target/local-fleet/broker.token: export " + TOKEN_ENV
                            + "=$(cat target/local-fleet/broker.token))");
        }
        return t;
    }
}
