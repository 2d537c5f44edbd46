package dev.cartograph.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What helm template renders for the documented value sets (examples/): the broker's replicas and leader
 * election, the agent's member name, namespaces and admission level, Kafka TLS/SASL by Secret reference, the
 * pods' hardening and probes, and which objects each role installs. Expected values are read off the example
 * files and docs/operations.md, not off the chart.
 */
@Timeout(300)
class ChartRenderTest {

    @Test
    void theHubRunsTwoBrokersElectingALeaderOnALeaseInTheReleaseNamespace() {
        Rendered hub = Chart.template("values-hub.yaml");

        JsonNode deployment = hub.get("Deployment", "cartograph-broker");
        assertThat(deployment.path("spec").path("replicas").asInt()).isEqualTo(2);
        JsonNode config = hub.config("broker");
        assertThat(config.path("lease-namespace").asText()).isEqualTo("cartograph-system");
        assertThat(config.path("lease-name").asText()).isEqualTo("cartograph-broker");
        assertThat(config.path("topology-levels").toString())
                .isEqualTo("[\"topology.kubernetes.io/zone\",\"cartograph.dev/rack\",\"nvidia.com/gpu.clique\"]");
        assertThat(config.path("bootstrap-servers").asText())
                .isEqualTo("kafka-0.kafka.kafka.svc:9092,kafka-1.kafka.kafka.svc:9092,kafka-2.kafka.kafka.svc:9092");
        // each replica's identity in the Lease is its pod name
        JsonNode id = Pods.env(hub.container("broker"), "CARTOGRAPH_BROKER_ID");
        assertThat(id.path("valueFrom").path("fieldRef").path("fieldPath").asText())
                .isEqualTo("metadata.name");
        // kept apart, and one kept up through a drain
        JsonNode pod = deployment.path("spec").path("template").path("spec");
        assertThat(pod.path("affinity")
                        .path("podAntiAffinity")
                        .path("preferredDuringSchedulingIgnoredDuringExecution")
                        .get(0)
                        .path("podAffinityTerm")
                        .path("topologyKey")
                        .asText())
                .isEqualTo("kubernetes.io/hostname");
        assertThat(pod.path("topologySpreadConstraints")
                        .get(0)
                        .path("labelSelector")
                        .path("matchLabels"))
                .isEqualTo(deployment.path("spec").path("selector").path("matchLabels"));
        JsonNode pdb = hub.get("PodDisruptionBudget", "cartograph-broker");
        assertThat(pdb.path("spec").path("minAvailable").asInt()).isEqualTo(1);
        assertThat(pdb.path("spec").path("selector"))
                .isEqualTo(deployment.path("spec").path("selector"));
    }

    @Test
    void oneBrokerWithoutLeaderElectionHasNoLeaseNoRoleAndNoDisruptionBudget() {
        Rendered hub = Chart.template(
                List.of("values-hub.yaml"), Map.of("broker.replicas", 1, "broker.leaderElection.enabled", false));

        assertThat(hub.get("Deployment", "cartograph-broker")
                        .path("spec")
                        .path("replicas")
                        .asInt())
                .isEqualTo(1);
        assertThat(hub.config("broker").has("lease-namespace")).isFalse();
        assertThat(hub.ofKind("Role")).isEmpty();
        assertThat(hub.ofKind("PodDisruptionBudget")).isEmpty();
    }

    @Test
    void theImageIsTheOneTheBuildNamesUnlessSetAndJvmOptionsAreAddedOnlyWhenGiven() {
        JsonNode byDefault = Chart.template("values-member.yaml").container("agent");
        JsonNode set = Chart.template(
                        List.of("values-member.yaml"),
                        Map.of(
                                "agent.image.repository", "registry.example.com/carto/agent",
                                "agent.image.tag", "1.2.3",
                                "agent.jvmOptions", "-Xss1m"))
                .container("agent");

        // mvn -Pimages: ${image.repository}/${project.artifactId}:${project.version}, repository "cartograph"
        assertThat(byDefault.path("image").asText()).isEqualTo("cartograph/cartograph-agent:0.1.0-SNAPSHOT");
        assertThat(byDefault.path("env").toString()).doesNotContain("JAVA_TOOL_OPTIONS");
        assertThat(set.path("image").asText()).isEqualTo("registry.example.com/carto/agent:1.2.3");
        assertThat(Pods.env(set, "JAVA_TOOL_OPTIONS").path("value").asText()).isEqualTo("-Xss1m");
    }

    @Test
    void eachCrdFollowsItsToggle() {
        Rendered withoutClusters = Chart.template(List.of("values-hub.yaml"), Map.of("crds.clusters", false));
        Rendered withoutQueues = Chart.template(List.of("values-hub.yaml"), Map.of("crds.queues", false));
        Rendered withoutBoth =
                Chart.template(List.of("values-hub.yaml"), Map.of("crds.clusters", false, "crds.queues", false));
        Rendered withKartas = Chart.template(List.of("values-hub.yaml"), Map.of("crds.kartas", true));

        assertThat(kinds(withoutClusters, "CustomResourceDefinition")).containsExactly("queues.cartograph.dev");
        assertThat(kinds(withoutQueues, "CustomResourceDefinition")).containsExactly("clusters.cartograph.dev");
        assertThat(withoutBoth.ofKind("CustomResourceDefinition")).isEmpty();
        assertThat(kinds(withKartas, "CustomResourceDefinition"))
                .containsExactlyInAnyOrder("clusters.cartograph.dev", "queues.cartograph.dev", "kartas.run.ai");
    }

    @Test
    void theQueueCrdIsTheHubsOnlyAndKeptOnUninstall() {
        Rendered member = Chart.template(List.of("values-member.yaml"), Map.of("crds.queues", true));
        JsonNode queues = Chart.template("values-hub.yaml").get("CustomResourceDefinition", "queues.cartograph.dev");

        assertThat(member.find("CustomResourceDefinition", "queues.cartograph.dev"))
                .isEmpty(); // a member has no broker to read Queues
        assertThat(queues.path("metadata")
                        .path("annotations")
                        .path("helm.sh/resource-policy")
                        .asText())
                .isEqualTo("keep");
        assertThat(queues.path("spec")
                        .path("versions")
                        .get(0)
                        .path("subresources")
                        .has("status"))
                .isTrue();
        assertThat(queues.path("spec")
                        .path("versions")
                        .get(0)
                        .path("additionalPrinterColumns")
                        .findValuesAsText("jsonPath"))
                .contains(".status.nominalGPUs", ".status.inUseGPUs", ".status.borrowedGPUs", ".status.waiting");
    }

    @Test
    void aTokenFileForTheApiIsMountedFromItsSecret() {
        Rendered hub = Chart.template(
                List.of("values-hub.yaml"),
                Map.of("broker.auth.mode", "token-file", "broker.auth.tokenFile.secretName", "cartograph-tokens"));

        JsonNode config = hub.config("broker");
        assertThat(config.path("auth-mode").asText()).isEqualTo("token-file");
        assertMountedFromSecret(
                hub, "broker", config.path("auth-token-file").asText(), "cartograph-tokens", "tokens.csv");
    }

    @Test
    void theHubInstallsTheBrokerAndItsCrdAndNothingOfTheAgent() {
        Rendered hub = Chart.template("values-hub.yaml");

        assertThat(kinds(hub, "CustomResourceDefinition"))
                .containsExactlyInAnyOrder("clusters.cartograph.dev", "queues.cartograph.dev");
        assertThat(hub.names()).noneMatch(n -> n.contains("agent"));
        assertThat(hub.get("Service", "cartograph-broker")
                        .path("spec")
                        .path("ports")
                        .get(0)
                        .path("port")
                        .asInt())
                .isEqualTo(8080);
        assertThat(hub.ofKind("ServiceMonitor")).isEmpty();
        assertThat(hub.ofKind("Secret")).isEmpty();
    }

    @Test
    void aMemberRunsOneAgentWithItsNameNamespacesAndAdmissionLevel() {
        Rendered member = Chart.template("values-member.yaml");

        JsonNode deployment = member.get("Deployment", "cartograph-agent");
        assertThat(deployment.path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(deployment.path("spec").path("strategy").path("type").asText())
                .isEqualTo("Recreate");
        JsonNode config = member.config("agent");
        assertThat(config.path("cluster").asText()).isEqualTo("gpu-east");
        assertThat(config.path("labels").path("region").asText()).isEqualTo("us-east");
        assertThat(config.path("allowed-namespaces").toString()).isEqualTo("[\"ml\",\"research\"]");
        assertThat(config.path("pod-security-level").asText()).isEqualTo("baseline");
        assertThat(config.path("agent-namespace").asText()).isEqualTo("cartograph-system");
        assertThat(config.path("create-namespaces").asBoolean()).isFalse();
        assertThat(config.has("kafka"))
                .as("plaintext Kafka: no client security settings")
                .isFalse();
        assertThat(member.ofKind("CustomResourceDefinition")).isEmpty();
        assertThat(member.names()).noneMatch(n -> n.contains("broker"));
    }

    @Test
    void aMemberOnScramOverTlsReferencesItsSecretsByNameAndNeverHoldsAPassword() {
        Rendered member = Chart.template("values-member-sasl-tls.yaml");

        JsonNode kafka = member.config("agent").path("kafka");
        assertThat(kafka.path("security.protocol").asText()).isEqualTo("SASL_SSL");
        assertThat(kafka.path("sasl.mechanism").asText()).isEqualTo("SCRAM-SHA-512");
        // the shape docs/operations.md documents, with the password left to the environment
        assertThat(kafka.path("sasl.jaas.config").asText())
                .isEqualTo("org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"cartograph-agent-gpu-west\" password=\"${KAFKA_SASL_PASSWORD}\";");
        assertThat(kafka.path("ssl.truststore.password").asText()).isEqualTo("${KAFKA_TRUSTSTORE_PASSWORD}");
        assertThat(kafka.path("ssl.truststore.type").asText()).isEqualTo("PKCS12");
        JsonNode container = member.container("agent");
        assertSecretEnv(container, "KAFKA_SASL_PASSWORD", "cartograph-agent-kafka", "password");
        assertSecretEnv(container, "KAFKA_TRUSTSTORE_PASSWORD", "kafka-ca", "password");
        assertMountedFromSecret(
                member, "agent", kafka.path("ssl.truststore.location").asText(), "kafka-ca", "ca.p12");
        assertThat(member.config("agent").path("pod-security-level").asText()).isEqualTo("restricted");
        // the agent's /prometheus is open: no token
        JsonNode endpoint = member.get("ServiceMonitor", "cartograph-agent")
                .path("spec")
                .path("endpoints")
                .get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/prometheus");
        assertThat(endpoint.has("authorization")).isFalse();
        assertThat(member.ofKind("Secret")).isEmpty();
    }

    @Test
    void theHubOnStrimziReadsStrimzisOwnSecrets() {
        Rendered hub = Chart.template("values-hub-strimzi.yaml");

        // Strimzi's names: CLUSTER-kafka-bootstrap, CLUSTER-cluster-ca-cert (ca.p12, ca.password), the user's Secret
        JsonNode config = hub.config("broker");
        assertThat(config.path("bootstrap-servers").asText())
                .isEqualTo("cartograph-kafka-kafka-bootstrap.kafka.svc:9093");
        JsonNode container = hub.container("broker");
        assertSecretEnv(container, "KAFKA_TRUSTSTORE_PASSWORD", "cartograph-kafka-cluster-ca-cert", "ca.password");
        assertSecretEnv(container, "KAFKA_SASL_PASSWORD", "cartograph-broker", "password");
        assertMountedFromSecret(
                hub,
                "broker",
                config.path("kafka").path("ssl.truststore.location").asText(),
                "cartograph-kafka-cluster-ca-cert",
                "ca.p12");
    }

    @Test
    void aMemberWithAClientCertificateUsesMutualTls() {
        Rendered member = Chart.template("values-member-mtls.yaml");

        JsonNode kafka = member.config("agent").path("kafka");
        assertThat(kafka.path("security.protocol").asText()).isEqualTo("SSL");
        assertThat(kafka.has("sasl.jaas.config")).isFalse();
        assertThat(kafka.path("ssl.keystore.type").asText()).isEqualTo("PKCS12");
        assertThat(kafka.path("ssl.keystore.password").asText()).isEqualTo("${KAFKA_KEYSTORE_PASSWORD}");
        assertThat(kafka.has("ssl.key.password")).isFalse();
        assertSecretEnv(member.container("agent"), "KAFKA_KEYSTORE_PASSWORD", "cartograph-agent-tls", "password");
        assertMountedFromSecret(
                member, "agent", kafka.path("ssl.keystore.location").asText(), "cartograph-agent-tls", "client.p12");
        assertMountedFromSecret(
                member, "agent", kafka.path("ssl.truststore.location").asText(), "kafka-ca", "ca.p12");
        // the Karta stand-in CRD without the broker's
        assertThat(kinds(member, "CustomResourceDefinition")).containsExactly("kartas.run.ai");
    }

    @Test
    void theHubOnScramOverTlsIsScrapedByThePrometheusOperator() {
        Rendered hub = Chart.template("values-hub-sasl-tls.yaml");

        JsonNode kafka = hub.config("broker").path("kafka");
        assertThat(kafka.path("security.protocol").asText()).isEqualTo("SASL_SSL");
        assertThat(kafka.path("sasl.jaas.config").asText()).contains("username=\"cartograph-broker\"");
        assertSecretEnv(hub.container("broker"), "KAFKA_SASL_PASSWORD", "cartograph-broker-kafka", "password");
        JsonNode monitor = hub.get("ServiceMonitor", "cartograph-broker");
        assertThat(monitor.path("metadata").path("labels").path("release").asText())
                .isEqualTo("prometheus");
        JsonNode endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("path").asText()).isEqualTo("/prometheus");
        assertThat(endpoint.path("port").asText()).isEqualTo("http");
        assertThat(monitor.path("spec").path("selector").path("matchLabels"))
                .isEqualTo(hub.get("Service", "cartograph-broker").path("spec").path("selector"));
        // /prometheus asks for a bearer token: a token of a ServiceAccount with no permissions
        JsonNode credentials = endpoint.path("authorization").path("credentials");
        assertThat(endpoint.path("authorization").path("type").asText()).isEqualTo("Bearer");
        JsonNode token = hub.get("Secret", credentials.path("name").asText());
        assertThat(token.path("type").asText()).isEqualTo("kubernetes.io/service-account-token");
        assertThat(credentials.path("key").asText()).isEqualTo("token");
        String scraper = token.path("metadata")
                .path("annotations")
                .path("kubernetes.io/service-account.name")
                .asText();
        assertThat(hub.find("ServiceAccount", scraper)).isPresent();
        assertThat(hub.ofKind("RoleBinding").stream()
                        .map(b -> b.path("subjects").toString()))
                .noneMatch(subjects -> subjects.contains(scraper));
        assertThat(hub.ofKind("ClusterRoleBinding").stream()
                        .map(b -> b.path("subjects").toString()))
                .noneMatch(subjects -> subjects.contains(scraper));
    }

    @Test
    void aHubThatIsAlsoAMemberRunsBothWithoutANameClash() {
        Rendered both = Chart.template("values-hub-and-member.yaml");

        assertThat(both.find("Deployment", "cartograph-broker")).isPresent();
        assertThat(both.find("Deployment", "cartograph-agent")).isPresent();
        assertThat(both.names()).doesNotHaveDuplicates();
        assertThat(both.get("Service", "cartograph-broker").path("spec").path("selector"))
                .isNotEqualTo(
                        both.get("Service", "cartograph-agent").path("spec").path("selector"));
    }

    private static List<String> kinds(Rendered r, String kind) {
        List<String> names = new ArrayList<>();
        r.ofKind(kind).forEach(o -> names.add(o.path("metadata").path("name").asText()));
        return names;
    }

    private static void assertSecretEnv(JsonNode container, String name, String secret, String key) {
        JsonNode ref = Pods.env(container, name).path("valueFrom").path("secretKeyRef");
        assertThat(ref.path("name").asText()).as(name).isEqualTo(secret);
        assertThat(ref.path("key").asText()).as(name).isEqualTo(key);
        assertThat(Pods.env(container, name).has("value"))
                .as("%s must not be inlined", name)
                .isFalse();
    }

    /** The file at {@code path} in the container comes from key {@code key} of Secret {@code secret}. */
    private static void assertMountedFromSecret(Rendered r, String component, String path, String secret, String key) {
        JsonNode pod = r.get("Deployment", "cartograph-" + component)
                .path("spec")
                .path("template")
                .path("spec");
        JsonNode c = pod.path("containers").get(0);
        String dir = path.substring(0, path.lastIndexOf('/'));
        String file = path.substring(path.lastIndexOf('/') + 1);
        JsonNode volume = Pods.volumeAt(pod, c, dir);
        assertThat(volume.path("secret").path("secretName").asText()).isEqualTo(secret);
        assertThat(volume.path("secret").path("items").toString())
                .isEqualTo("[{\"key\":\"" + key + "\",\"path\":\"" + file + "\"}]");
    }
}
