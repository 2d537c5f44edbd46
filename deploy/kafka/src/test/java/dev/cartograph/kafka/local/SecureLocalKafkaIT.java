package dev.cartograph.kafka.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secure LocalKafka: every listener is TLS, SCRAM users and certificate identities are
 * principals, and nothing is allowed that no ACL allows.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SecureLocalKafkaIT {

    @TempDir
    static Path tmp;

    static LocalKafka kafka;

    @BeforeAll
    static void start() {
        long t0 = System.nanoTime();
        kafka = LocalKafka.startSecure(tmp.resolve("secure"));
        System.out.printf(
                "secure LocalKafka start (CA, certificates, format, startup): %d ms%n",
                (System.nanoTime() - t0) / 1_000_000);
        kafka.createTopics("open", "closed");
        // only User:writer may write "open"; nobody but the super users may touch "closed"
        kafka.secure().createAcls(List.of(allow("User:writer", "open"), allow("User:cert-writer", "open")));
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void scramUserWritesWhereAnAclAllowsIt() throws Exception {
        try (KafkaProducer<String, String> producer = producer(kafka.secure().scram("writer"))) {
            producer.send(new ProducerRecord<>("open", "k", "v")).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void scramUserIsDeniedWhereNoAclAllowsIt() {
        try (KafkaProducer<String, String> producer = producer(kafka.secure().scram("writer"))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("closed", "k", "v"))
                            .get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void scramUserWithAWrongPasswordCannotConnect() {
        Map<String, String> settings = new HashMap<>(kafka.secure().scram("writer"));
        settings.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"writer\" password=\"guess\";");
        try (KafkaProducer<String, String> producer = producer(settings)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("open", "k", "v"))
                            .get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void certificateCommonNameIsThePrincipal() throws Exception {
        // the ACL names User:cert-writer; the certificate says CN=cert-writer
        try (KafkaProducer<String, String> producer = producer(kafka.secure().tls("cert-writer"))) {
            producer.send(new ProducerRecord<>("open", "k", "v")).get(10, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = producer(kafka.secure().tls("cert-reader"))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("open", "k", "v"))
                            .get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void clientWithoutACertificateCannotConnectToTheMutualTlsListener() {
        Map<String, Object> settings = new HashMap<>(kafka.secure().tlsWithoutCertificate());
        settings.put("default.api.timeout.ms", 10_000);
        settings.put("request.timeout.ms", 5_000);
        try (Admin admin = Admin.create(settings)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(15, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(SslAuthenticationException.class);
        }
    }

    @Test
    void plaintextClientCannotTalkToTheSecureListener() {
        Map<String, Object> settings = Map.of(
                "bootstrap.servers",
                kafka.bootstrapServers(),
                "default.api.timeout.ms",
                5_000,
                "request.timeout.ms",
                2_000);
        try (Admin admin = Admin.create(settings)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(15, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    @Test
    void administratorIsASuperUser() throws Exception {
        try (Admin admin = Admin.create(new HashMap<>(kafka.clientSettings()))) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains("open", "closed");
        }
    }

    static AclBinding allow(String principal, String topic) {
        return new AclBinding(
                new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL),
                new AccessControlEntry(principal, "*", AclOperation.WRITE, AclPermissionType.ALLOW));
    }

    static KafkaProducer<String, String> producer(Map<String, String> settings) {
        Map<String, Object> config = new HashMap<>(settings);
        config.put("max.block.ms", 10_000);
        config.put("delivery.timeout.ms", 10_000);
        config.put("request.timeout.ms", 5_000);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }
}
