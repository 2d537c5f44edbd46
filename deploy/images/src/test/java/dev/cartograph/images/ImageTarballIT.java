package dev.cartograph.images;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The broker's and the agent's image tarballs ({@code mvn -Pimages -DskipTests package}) run without a container
 * runtime: their config names a non-root user, the entrypoint and the service's port, and their layers, unpacked into
 * a directory, start the entrypoint under {@code chroot} as that user, also on a read-only root with only /tmp
 * writable. Skips, saying why, when a tarball is missing or chroot/unshare are not permitted (not root).
 *
 * <p>{@link Chroot} says how a command runs in the unpacked image (with a /proc, in private namespaces).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ImageTarballIT {

    /** What the poms say of each service (exec.mainClass, image.port, the usage in its main). */
    record Service(String artifact, String tarballProperty, String mainClass, String port, String mainSetting) {
        @Override
        public String toString() {
            return artifact;
        }
    }

    static Stream<Service> services() {
        return Stream.of(
                new Service(
                        "cartograph-broker",
                        "image.broker.tar",
                        "dev.cartograph.broker.BrokerApplication",
                        "8080/tcp",
                        "CARTOGRAPH_BROKER_BOOTSTRAP_SERVERS"),
                new Service(
                        "cartograph-agent",
                        "image.agent.tar",
                        "dev.cartograph.agent.AgentApplication",
                        "8081/tcp",
                        "CARTOGRAPH_AGENT_CLUSTER"));
    }

    /** distroless's nonroot user, which base-image.sh writes into /etc/passwd. */
    private static final String NONROOT = "65532:65532";

    @TempDir
    static Path work;

    /** Each tarball is read and unpacked once for all the tests of the class. */
    private static final Map<String, ImageTarball> IMAGES = new ConcurrentHashMap<>();

    private static final Map<String, Path> ROOTS = new ConcurrentHashMap<>();

    @ParameterizedTest
    @MethodSource("services")
    void configRunsTheServiceAsNonrootOnItsPort(Service service) throws Exception {
        ImageTarball image = open(service);

        assertThat(image.user()).isEqualTo(NONROOT);
        assertThat(image.entrypoint())
                .startsWith("/opt/java/bin/java")
                .contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-XX:-UsePerfData")
                .contains("-Djava.io.tmpdir=/tmp")
                .endsWith("-cp", "@/app/jib-classpath-file", service.mainClass());
        assertThat(image.exposedPorts()).containsExactly(service.port());
        assertThat(image.env()).contains("JAVA_HOME=/opt/java");
        assertThat(image.label("org.opencontainers.image.title")).isEqualTo(service.artifact());
        assertThat(image.label("org.opencontainers.image.version")).isEqualTo(expectedVersion());
    }

    @ParameterizedTest
    @MethodSource("services")
    void entrypointPrintsTheVersionAndHelpUnderChroot(Service service) throws Exception {
        ImageTarball image = open(service);
        Path root = unpack(service, image);

        Processes.Result version = inChroot(root, image, false, "--version");
        Processes.Result help = inChroot(root, image, false, "--help");

        assertThat(version.exit()).as(version.output()).isZero();
        assertThat(version.output().strip()).isEqualTo(service.artifact() + " " + expectedVersion());
        assertThat(help.exit()).as(help.output()).isZero();
        assertThat(help.output()).startsWith(service.artifact() + " " + expectedVersion());
        assertThat(help.output()).contains(service.mainSetting(), "--version");
    }

    @ParameterizedTest
    @MethodSource("services")
    void javaRunsAsNonrootOnAReadOnlyRootWritingOnlyTmp(Service service) throws Exception {
        ImageTarball image = open(service);
        Path root = unpack(service, image);

        Processes.Result version = inChroot(root, image, true, "--version");
        // the same java and flags, asked for its settings: who it runs as, where it may write
        List<String> settings =
                new ArrayList<>(image.entrypoint().subList(0, image.entrypoint().indexOf("-cp")));
        settings.addAll(List.of("-XshowSettings:properties", "-version"));
        Processes.Result properties = run(root, image, true, settings);

        assertThat(version.exit()).as(version.output()).isZero();
        assertThat(version.output().strip()).isEqualTo(service.artifact() + " " + expectedVersion());
        assertThat(properties.exit()).as(properties.output()).isZero();
        assertThat(properties.output())
                .contains("user.name = nonroot", "user.home = /home/nonroot", "java.io.tmpdir = /tmp")
                .contains("java.home = /opt/java");
    }

    @ParameterizedTest
    @MethodSource("services")
    void baseIsDistrolessWithItsPackagesRecorded(Service service) throws Exception {
        Path root = unpackOnly(service, open(service));
        Path mozilla = root.resolve("usr/share/ca-certificates/mozilla");
        long certificates;
        try (Stream<Path> files = Files.list(mozilla)) {
            certificates =
                    files.filter(file -> file.toString().endsWith(".crt")).count();
        }
        String bundle = Files.readString(root.resolve("etc/ssl/certs/ca-certificates.crt"));
        List<String> recorded;
        try (Stream<Path> files = Files.list(root.resolve("var/lib/dpkg/status.d"))) {
            recorded = files.map(file -> file.getFileName().toString()).sorted().toList();
        }

        assertThat(root.resolve("bin/sh")).as("no shell").doesNotExist();
        assertThat(root.resolve("usr/bin/apt-get")).as("no package manager").doesNotExist();
        // the list in base-image.sh
        assertThat(recorded)
                .containsExactly(
                        "base-files",
                        "ca-certificates",
                        "libc6",
                        "libgcc-s1",
                        "libstdc++6",
                        "netbase",
                        "tzdata",
                        "zlib1g");
        assertThat(certificates)
                .as("certificates in the ca-certificates package")
                .isGreaterThan(100);
        assertThat(bundle.split("-----BEGIN CERTIFICATE-----", -1)).hasSize((int) certificates + 1);
        assertThat(Files.readString(root.resolve("etc/passwd")))
                .contains("nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin");
        assertThat(Files.readString(root.resolve("usr/share/zoneinfo/Europe/Berlin"), StandardCharsets.ISO_8859_1))
                .startsWith("TZif");
    }

    /** One jdeps run over both images' jars (most are shared; jdeps takes half a minute over each image). */
    @Test
    void javaRuntimeHasEveryModuleTheServicesUse() throws Exception {
        Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
        assumeTrue(Files.isExecutable(jdeps), "no jdeps in " + System.getProperty("java.home") + " (a JDK is needed)");
        Map<String, Path> jars = new TreeMap<>(); // by file name: the same jar in both images is read once
        List<String> releases = new ArrayList<>();
        for (Service service : services().toList()) {
            Path root = unpackOnly(service, open(service));
            for (String dir : List.of("app/classpath", "app/libs")) {
                try (Stream<Path> files = Files.list(root.resolve(dir))) {
                    files.forEach(jar -> jars.putIfAbsent(jar.getFileName().toString(), jar));
                }
            }
            releases.add(Files.readString(root.resolve("opt/java/release")));
        }
        List<String> command = new ArrayList<>(List.of(
                jdeps.toString(), "--print-module-deps", "--ignore-missing-deps", "--multi-release", "17", "-q"));
        jars.values().forEach(jar -> command.add(jar.toString()));

        Processes.Result used = Processes.run(command, List.of()).requireSuccess("jdeps over the images' jars");
        List<String> lines = used.output().strip().lines().toList();
        List<String> modules = Arrays.asList(lines.get(lines.size() - 1).split(","));

        assertThat(modules).contains("java.base");
        for (String release : releases) {
            assertThat(runtimeModules(release)).containsAll(modules);
        }
    }

    private static List<String> runtimeModules(String release) {
        return release.lines()
                .filter(line -> line.startsWith("MODULES="))
                .findFirst()
                .map(line -> Arrays.asList(
                        line.substring("MODULES=".length()).replace("\"", "").split(" ")))
                .orElseThrow(() -> new IllegalStateException("/opt/java/release names no MODULES:\n" + release));
    }

    private ImageTarball open(Service service) throws IOException, InterruptedException {
        String property = System.getProperty(service.tarballProperty(), "");
        Path tarball = Path.of(property);
        assumeTrue(
                !property.isEmpty() && Files.isRegularFile(tarball),
                service.artifact() + " has no image tarball at '" + property
                        + "': build it with mvn -B -ntp -Pimages -DskipTests package");
        ImageTarball image = IMAGES.get(service.artifact());
        if (image == null) {
            Path files = Files.createDirectories(work.resolve(service.artifact() + "-tarball"));
            image = ImageTarball.open(tarball, files);
            IMAGES.put(service.artifact(), image);
        }
        return image;
    }

    private Path unpack(Service service, ImageTarball image) throws IOException, InterruptedException {
        Chroot.requirePermitted();
        return unpackOnly(service, image);
    }

    private Path unpackOnly(Service service, ImageTarball image) throws IOException, InterruptedException {
        Path root = ROOTS.get(service.artifact());
        if (root == null) {
            root = work.resolve(service.artifact() + "-root");
            image.unpackInto(root);
            ROOTS.put(service.artifact(), root);
        }
        return root;
    }

    /** The entrypoint with {@code args} after it (as a container runtime appends the container's args). */
    private Processes.Result inChroot(Path root, ImageTarball image, boolean readOnly, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(image.entrypoint());
        command.addAll(Arrays.asList(args));
        return run(root, image, readOnly, command);
    }

    /** {@code command} inside {@code root} as the image's user with the image's environment. */
    private Processes.Result run(Path root, ImageTarball image, boolean readOnly, List<String> command)
            throws IOException, InterruptedException {
        return Processes.run(Chroot.command(root, image.user(), readOnly, command), image.env());
    }

    private static String expectedVersion() {
        return System.getProperty("cartograph.version", "the version the pom passes");
    }
}
