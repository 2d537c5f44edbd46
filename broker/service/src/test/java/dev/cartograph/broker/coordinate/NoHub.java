package dev.cartograph.broker.coordinate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** A hub that takes every write and keeps none (benchmarks that measure the broker, not its hub writes). */
public final class NoHub implements Hub {
    public static final Hub INSTANCE = new NoHub();

    private NoHub() {}

    @Override
    public void addFinalizer(JsonNode object) {}

    @Override
    public void removeFinalizer(JsonNode object) {}

    @Override
    public void mark(JsonNode object, Map<String, String> labels, Map<String, String> annotations) {}

    @Override
    public void status(JsonNode object, JsonNode status) {}

    @Override
    public void event(JsonNode object, String type, String reason, String message) {}
}
