package dev.cartograph.mock.fleet;

import dev.cartograph.mock.admission.AdmissionRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The simulated member clusters of a local fleet, read from YAML:
 *
 * <pre>{@code
 * clusters:
 *   - name: gpu-east
 *     labels: {region: us-east}
 *     nodePools:
 *       - name: h100            # nodes gpu-east-h100-0 ...
 *         count: 4
 *         gpuProduct: NVIDIA-H100-80GB-HBM3
 *         gpus: 8
 *         cpu: "192"
 *         memory: 2Ti
 *         pods: 110             # optional, default 110
 *         usedGpus: [0, 0, 2, 8]  # optional, default all 0
 *         taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]  # optional
 *         labels: {nvidia.com/gpu.clique: nvl72-1}  # optional: on every node of the pool (topology domains)
 *     admission:            # optional: creates and updates this cluster's API server refuses (403)
 *       - kind: PyTorchJob    # kind name, any API group
 *         namespace: "*"      # optional, default "*" (every namespace)
 *         message: PyTorchJobs are not allowed on this cluster
 *         webhook: deny-pytorch.example.com   # optional, default validate.policy.cartograph.dev
 *         operations: [CREATE, UPDATE]        # optional, default both
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public record FleetProfile(List<ClusterProfile> clusters) {
    /** The classpath resource of {@link #defaultProfile()}. */
    public static final String DEFAULT_RESOURCE = "fleet-profiles/default.yaml";

    public FleetProfile {
        clusters = List.copyOf(clusters);
    }

    /** What parsing produced: the profile when there are no problems, and every problem found. */
    public record Parsed(Optional<FleetProfile> profile, List<ProfileProblem> problems) {
        public Parsed {
            Objects.requireNonNull(profile, "profile");
            problems = List.copyOf(problems);
        }

        /** The profile, or an exception listing every problem. */
        public FleetProfile orThrow() {
            return profile.orElseThrow(() -> new InvalidFleetProfileException(problems));
        }
    }

    /** Parses YAML, collecting every problem; {@code origin} (a file name) prefixes each. */
    public static Parsed parse(InputStream yaml, String origin) {
        return new ProfileParser(origin).parse(yaml);
    }

    /** Reads a profile file; throws {@link InvalidFleetProfileException} listing every problem. */
    public static FleetProfile read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString()).orThrow();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read fleet profile " + file, e);
        }
    }

    /** Reads a profile; throws {@link InvalidFleetProfileException} listing every problem. */
    public static FleetProfile read(InputStream yaml) {
        return parse(yaml, "fleet profile").orThrow();
    }

    /** The bundled profile: gpu-east (4×8 H100), gpu-west (8×8 A100), gpu-edge (2×4 L40S), partly used. */
    public static FleetProfile defaultProfile() {
        try (InputStream in = FleetProfile.class.getClassLoader().getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(DEFAULT_RESOURCE + " is missing from the classpath (broken build)");
            }
            return parse(in, DEFAULT_RESOURCE).orThrow();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DEFAULT_RESOURCE, e);
        }
    }

    /**
     * A profile bundled under {@code fleet-profiles/NAME.yaml} ({@code default}, {@code topology}); empty when there is
     * none of that name.
     */
    public static Optional<FleetProfile> bundled(String name) {
        if (!name.matches("[a-z0-9-]+")) {
            return Optional.empty();
        }
        String resource = "fleet-profiles/" + name + ".yaml";
        try (InputStream in = FleetProfile.class.getClassLoader().getResourceAsStream(resource)) {
            return in == null
                    ? Optional.empty()
                    : Optional.of(parse(in, resource).orThrow());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * This fleet with cluster {@code name}'s API server refusing what {@code rules} deny (in place of its own rules),
     * e.g. {@code defaultProfile().withAdmission("gpu-edge", AdmissionRule.denying("PyTorchJob", "not here"))}.
     *
     * @throws IllegalArgumentException when the fleet has no such cluster
     */
    public FleetProfile withAdmission(String name, AdmissionRule... rules) {
        if (cluster(name).isEmpty()) {
            throw new IllegalArgumentException("the fleet has no cluster " + name + "; it has "
                    + clusters.stream().map(ClusterProfile::name).toList());
        }
        return new FleetProfile(clusters.stream()
                .map(c -> c.name().equals(name) ? c.withAdmission(List.of(rules)) : c)
                .toList());
    }

    public Optional<ClusterProfile> cluster(String name) {
        return clusters.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
