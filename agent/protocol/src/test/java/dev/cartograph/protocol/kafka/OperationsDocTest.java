package dev.cartograph.protocol.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.protocol.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** docs/operations.md shows exactly the ACLs {@link KafkaAcls} makes, so the two cannot drift apart. */
@Timeout(10)
class OperationsDocTest {
    static final Path DOC = Path.of("../../docs/operations.md");
    static final String BEGIN = "<!-- kafka-acls: generated from KafkaAcls for cluster gpu-east;";
    static final String END = "<!-- kafka-acls: end -->";

    @Test
    void operationsGuideShowsTheAclsKafkaAclsRendersForAnExampleCluster() throws IOException {
        KafkaAcls acls = new KafkaAcls(new Topics("cartograph"));
        List<String> rendered = new ArrayList<>();
        rendered.addAll(KafkaAcls.commands(acls.agent("gpu-east", "User:cartograph-agent-gpu-east")));
        rendered.addAll(KafkaAcls.commands(acls.broker("User:cartograph-broker")));

        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("the generated block's start marker in " + DOC).isNotNegative();
        assertThat(end).as("its end marker").isGreaterThan(begin);
        String block = doc.substring(doc.indexOf('\n', begin) + 1, end);
        assertThat(block).isEqualTo("```sh\n" + String.join("\n", rendered) + "\n```\n");
    }
}
