package dev.cartograph.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A thin client of the broker's REST API (JDK HttpClient), sending a bearer token; failures come back as
 * {@link Failure} with a reason and exit code ({@link Carto#ACCESS_DENIED} for 401 and 403).
 */
final class BrokerApi {
    /** The broker could not be reached, or answered with an error. */
    static final class Failure extends Exception {
        final int exit;

        Failure(int exit, String message) {
            super(message, null, false, false);
            this.exit = exit;
        }
    }

    private final URI base;
    private final String token;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param token the bearer token every request carries */
    BrokerApi(String url, String token) throws Failure {
        this.token = token;
        try {
            this.base = URI.create(url.endsWith("/") ? url : url + "/");
            if (base.getScheme() == null || !base.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            throw new Failure(Carto.UNREADABLE, "--broker '" + url + "': " + e.getMessage());
        }
    }

    JsonNode get(String path) throws Failure {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .GET()
                .build());
    }

    JsonNode post(String path, String json) throws Failure {
        return send(HttpRequest.newBuilder(base.resolve(path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    private JsonNode send(HttpRequest request) throws Failure {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Failure(Carto.CLUSTER_ERROR, "cannot reach the broker at " + base + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure(Carto.CLUSTER_ERROR, "interrupted");
        }
        JsonNode body;
        try {
            body = Documents.json().readTree(response.body());
        } catch (IOException e) {
            throw new Failure(
                    Carto.CLUSTER_ERROR,
                    "the broker at " + base + " answered " + response.statusCode() + " with no JSON");
        }
        if (response.statusCode() >= 400) {
            String message = body.path("error").path("message").asText(body.toString());
            if (response.statusCode() == 401) {
                throw new Failure(
                        Carto.ACCESS_DENIED,
                        "the broker at " + base + " does not accept the token (401: " + message + "); check "
                                + BrokerOptions.TOKEN_ENV + " or --token-file");
            }
            if (response.statusCode() == 403) {
                throw new Failure(
                        Carto.ACCESS_DENIED,
                        "the broker at " + base + " does not allow this (403: " + message + "); ask for that "
                                + "permission on the hub (RBAC), or use a token that has it");
            }
            throw new Failure(
                    response.statusCode() == 422
                            ? Carto.INVALID
                            : response.statusCode() == 400
                                    ? Carto.UNREADABLE
                                    : response.statusCode() == 404 ? Carto.NOT_FOUND : Carto.CLUSTER_ERROR,
                    "the broker says: " + message);
        }
        return body;
    }
}
