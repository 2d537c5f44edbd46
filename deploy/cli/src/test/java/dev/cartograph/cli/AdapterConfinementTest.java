package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * fabric8 stays behind the CLI's {@code kube} adapter package: no other main source file names it.
 * (A stopgap until the build's architecture rules cover the CLI; it reads the sources, so it needs
 * no compiled classes.)
 */
@Timeout(30)
class AdapterConfinementTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/cartograph/cli");

    @Test
    void onlyTheKubePackageMentionsFabric8() throws IOException {
        List<Path> offenders;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            offenders = files.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !SOURCES.relativize(p).startsWith("kube"))
                    .filter(AdapterConfinementTest::mentionsFabric8)
                    .toList();
        }
        assertThat(Files.isDirectory(SOURCES.resolve("kube"))).isTrue();
        assertThat(offenders).isEmpty();
    }

    private static boolean mentionsFabric8(Path file) {
        try {
            return Files.readString(file).contains("io.fabric8");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
