package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/install.md's Strimzi KafkaUsers grant exactly the ACLs {@link KafkaAcls} makes. */
class InstallDocTest {
    static final Path DOC = Path.of("../../docs/install.md");
    static final String BEGIN = "<!-- strimzi-users: generated from KafkaAcls;";
    static final String END = "<!-- strimzi-users: end -->";
    static final String KAFKA = "cartograph-kafka";

    @Test
    void theInstallGuidesKafkaUsersAreWhatKafkaAclsRendersForTheBrokerAndBothMembers() throws IOException {
        KafkaAcls acls = new KafkaAcls(new Topics("cartograph"));
        StringBuilder rendered = new StringBuilder("```yaml\n");
        rendered.append(StrimziUsers.kafkaUser("cartograph-broker", KAFKA, acls.broker("User:cartograph-broker")));
        for (String cluster : List.of("gpu-east", "gpu-west")) {
            String user = "cartograph-agent-" + cluster;
            rendered.append("---\n").append(StrimziUsers.kafkaUser(user, KAFKA, acls.agent(cluster, "User:" + user)));
        }
        rendered.append("```\n");

        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("the generated block's start marker in " + DOC).isNotNegative();
        assertThat(end).as("its end marker").isGreaterThan(begin);
        assertThat(doc.substring(doc.indexOf('\n', begin) + 1, end)).isEqualTo(rendered.toString());
    }
}
