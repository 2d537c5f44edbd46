package dev.cartograph.local.fault.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of the fault suite recorded, for the {@link Checker} to read offline: the members' contents
 * sampled through the run, every committed placement record and command (the Kafka topics' history), and when the
 * suite — the user — deleted which gang. Written beside the run's logs ({@code history.json}) so a failed run can be
 * checked again without running it. Immutable.
 *
 * @param deletedAt placement id (the hub object's uid) → when the user deleted it, wall-clock ms
 */
public record History(List<Sample> samples, List<Durable> durable, List<Sent> sent, Map<String, Long> deletedAt) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public History {
        samples = List.copyOf(samples);
        durable = List.copyOf(durable);
        sent = List.copyOf(sent);
        deletedAt = Map.copyOf(deletedAt);
    }

    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    public static History read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), History.class);
    }
}
