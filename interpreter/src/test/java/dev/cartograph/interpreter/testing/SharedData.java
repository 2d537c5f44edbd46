package dev.cartograph.interpreter.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the upstream data that lives beside the repository ({@code ../shared}: recorded objects
 * and fixtures). Set {@code -Dcartograph.shared=DIR} or {@code CARTOGRAPH_SHARED=DIR} to point
 * elsewhere; otherwise the folders above the working directory are searched for {@code shared/}.
 */
public final class SharedData {
    private SharedData() {}

    public static Optional<Path> root() {
        String configured = System.getProperty("cartograph.shared", System.getenv("CARTOGRAPH_SHARED"));
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured).toAbsolutePath().normalize();
            return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared");
            if (Files.isDirectory(candidate.resolve("recorded")) || Files.isDirectory(candidate.resolve("fixtures"))) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public static Optional<Path> recorded() {
        return root().map(r -> r.resolve("recorded")).filter(Files::isDirectory);
    }

    public static Optional<Path> fixtures() {
        return root().map(r -> r.resolve("fixtures")).filter(Files::isDirectory);
    }

    /** The message a skipped test gives when the data is absent. */
    public static String absent(String what) {
        return "upstream " + what + " not found beside the repository (../shared/" + what
                + "); set -Dcartograph.shared=DIR or CARTOGRAPH_SHARED to run these checks";
    }
}
