package dev.cartograph.protocol.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServiceCommandLineTest {

    @TempDir
    Path jar;

    private ClassLoader packaged(String artifact, String version) throws IOException {
        Path properties = jar.resolve("META-INF/maven/dev.cartograph/" + artifact + "/pom.properties");
        Files.createDirectories(properties.getParent());
        // what maven-archiver writes into every jar
        Files.writeString(properties, "artifactId=" + artifact + "\ngroupId=dev.cartograph\nversion=" + version + "\n");
        return new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
    }

    @Test
    void versionNamesTheServiceAndTheVersionInItsJar() throws IOException {
        ServiceCommandLine line =
                new ServiceCommandLine("cartograph-agent", "usage", packaged("cartograph-agent", "1.2.3"));

        assertThat(line.answer(List.of("--version"))).contains("cartograph-agent 1.2.3");
        assertThat(line.answer(List.of("-V"))).contains("cartograph-agent 1.2.3");
    }

    @Test
    void helpPrintsTheVersionLineThenTheUsage() throws IOException {
        ServiceCommandLine line = new ServiceCommandLine(
                "cartograph-broker", "CARTOGRAPH_BROKER_PORT  the port", packaged("cartograph-broker", "0.9"));

        assertThat(line.answer(List.of("-Dx=y", "--help")))
                .contains("cartograph-broker 0.9" + System.lineSeparator() + "CARTOGRAPH_BROKER_PORT  the port");
        assertThat(line.answer(List.of("-h")))
                .hasValueSatisfying(text -> assertThat(text).endsWith("the port"));
    }

    @Test
    void otherArgumentsStartTheService() throws IOException {
        ServiceCommandLine line =
                new ServiceCommandLine("cartograph-agent", "usage", packaged("cartograph-agent", "1"));

        assertThat(line.answer(List.of())).isEmpty();
        assertThat(line.answer(List.of("-Dcartograph.agent.cluster=east", "--versions")))
                .isEmpty();
    }

    @Test
    void anotherArtifactsVersionIsNotTaken() throws IOException {
        ServiceCommandLine line =
                new ServiceCommandLine("cartograph-agent", "usage", packaged("cartograph-broker", "7"));

        assertThat(line.version()).isEqualTo(ServiceCommandLine.UNPACKAGED);
    }

    @Test
    void refusesAnUnnamedService() {
        assertThatThrownBy(() -> new ServiceCommandLine(" ", "usage", getClass().getClassLoader()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("artifact");
    }
}
