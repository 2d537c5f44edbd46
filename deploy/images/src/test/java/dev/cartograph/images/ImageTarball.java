package dev.cartograph.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An image tarball as {@code docker save} writes it and {@code docker load} reads it (what {@code jib:buildTar}
 * makes): {@code manifest.json} naming one config and the layers, bottom first. Unpacked with the system's tar,
 * which keeps symbolic links, modes and owners as a container runtime's unpacking does.
 *
 * @param config the image configuration's {@code config} object (User, Entrypoint, ExposedPorts, Env, Labels)
 * @param layers the layer archives, bottom first
 */
record ImageTarball(JsonNode config, List<Path> layers) {

    /** Reads {@code tarball}, unpacking its files (not yet its layers) into {@code work}. */
    static ImageTarball open(Path tarball, Path work) throws IOException, InterruptedException {
        Processes.run(List.of("tar", "-xf", tarball.toString(), "-C", work.toString()), List.of())
                .requireSuccess("unpacking " + tarball);
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(work.resolve("manifest.json").toFile());
        if (manifest.size() != 1) {
            throw new IllegalStateException(tarball + ": manifest.json lists " + manifest.size() + " images, not 1");
        }
        JsonNode image = manifest.get(0);
        JsonNode config =
                json.readTree(work.resolve(image.get("Config").asText()).toFile());
        List<Path> layers = new ArrayList<>();
        image.get("Layers").forEach(layer -> layers.add(work.resolve(layer.asText())));
        return new ImageTarball(config.get("config"), List.copyOf(layers));
    }

    /** Unpacks the layers, bottom first, into {@code root}: the container's root filesystem. */
    void unpackInto(Path root) throws IOException, InterruptedException {
        Files.createDirectories(root);
        for (Path layer : layers) {
            // Jib writes libarchive's creation-time pax keyword; GNU tar only warns about it
            Processes.run(
                            List.of(
                                    "tar",
                                    "--warning=no-unknown-keyword",
                                    "-xzf",
                                    layer.toString(),
                                    "-C",
                                    root.toString()),
                            List.of())
                    .requireSuccess("unpacking layer " + layer.getFileName());
        }
    }

    List<String> entrypoint() {
        List<String> entrypoint = new ArrayList<>();
        config.path("Entrypoint").forEach(arg -> entrypoint.add(arg.asText()));
        return List.copyOf(entrypoint);
    }

    List<String> env() {
        List<String> env = new ArrayList<>();
        config.path("Env").forEach(variable -> env.add(variable.asText()));
        return List.copyOf(env);
    }

    List<String> exposedPorts() {
        List<String> ports = new ArrayList<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        return List.copyOf(ports);
    }

    String user() {
        return config.path("User").asText("");
    }

    String label(String name) {
        return config.path("Labels").path(name).asText("");
    }
}
