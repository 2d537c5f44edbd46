package dev.cartograph.protocol.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What a service (the broker, the agent) answers to {@code --help} and {@code --version} before anything
 * starts: its main asks {@link #answer} and prints the text instead of starting Micronaut, so an operator (or an
 * image test with no Kafka and no cluster) learns the version and the main settings without configuring any.
 * The version is the one Maven wrote into the service's jar ({@code META-INF/maven/dev.cartograph/ARTIFACT/pom.properties}).
 * Thread-safe: immutable.
 *
 * @param artifact the service's Maven artifact, which is also its name ({@code cartograph-broker})
 * @param usage what {@code --help} prints after the first line: the settings that matter, by environment variable
 * @param loader where the jar's {@code pom.properties} is looked up (the main class's loader)
 */
public record ServiceCommandLine(String artifact, String usage, ClassLoader loader) {

    /** The version when the service runs from classes, not from its jar (tests, an IDE). */
    public static final String UNPACKAGED = "unpackaged";

    public ServiceCommandLine {
        if (artifact == null || artifact.isBlank()) {
            throw new IllegalArgumentException("ServiceCommandLine.artifact must name the service's artifact");
        }
        if (usage == null || loader == null) {
            throw new IllegalArgumentException("ServiceCommandLine " + artifact + ": usage and loader are required");
        }
    }

    /**
     * The text to print and exit with 0 when the arguments ask for help or the version; empty when the service
     * should start (every other argument is Micronaut's, e.g. {@code -Dcartograph.broker.policy=SPREAD}).
     */
    public Optional<String> answer(List<String> args) {
        if (args.contains("--version") || args.contains("-V")) {
            return Optional.of(artifact + " " + version());
        }
        if (args.contains("--help") || args.contains("-h")) {
            return Optional.of(artifact + " " + version() + System.lineSeparator() + usage);
        }
        return Optional.empty();
    }

    /** The version in the service's jar, or {@link #UNPACKAGED} when it runs from classes. */
    public String version() {
        String resource = "META-INF/maven/dev.cartograph/" + artifact + "/pom.properties";
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                return UNPACKAGED;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", UNPACKAGED);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource + " of " + artifact + " (a retry will not help)", e);
        }
    }
}
