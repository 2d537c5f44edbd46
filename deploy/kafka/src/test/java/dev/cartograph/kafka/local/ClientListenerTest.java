package dev.cartograph.kafka.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientListenerTest {
    @Test
    void parsesItsArgumentBack() {
        ClientListener l = ClientListener.parse("AGENT_GPU_EAST=40100@40200");
        assertThat(l).isEqualTo(new ClientListener("AGENT_GPU_EAST", 40100, 40200));
        assertThat(ClientListener.parse(l.argument())).isEqualTo(l);
    }

    @Test
    void refusesWhatKafkaWouldNot() {
        assertThatThrownBy(() -> ClientListener.parse("agent=1@2")).hasMessageContaining("agent");
        assertThatThrownBy(() -> ClientListener.parse("PLAINTEXT=1@2")).hasMessageContaining("PLAINTEXT");
        assertThatThrownBy(() -> ClientListener.parse("BROKER=1")).hasMessageContaining("NAME=PORT@ADVERTISED_PORT");
    }

    @Test
    void bindsOnePortAndAdvertisesTheProxysOnTopOfTheNodesOwnListeners() {
        KafkaNode node = new KafkaNode(1, java.nio.file.Path.of("/tmp/n1"), 9092, 9093);
        Map<String, String> p = ClientListener.addedTo(
                node.serverProperties(List.of(node), false),
                List.of(new ClientListener("BROKER_0", 9100, 9200), new ClientListener("AGENT_A", 9101, 9201)));
        assertThat(p.get("listeners"))
                .isEqualTo("PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093,"
                        + "BROKER_0://127.0.0.1:9100,AGENT_A://127.0.0.1:9101");
        assertThat(p.get("advertised.listeners"))
                .isEqualTo("PLAINTEXT://127.0.0.1:9092,BROKER_0://127.0.0.1:9200,AGENT_A://127.0.0.1:9201");
        assertThat(p.get("listener.security.protocol.map"))
                .isEqualTo("PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,BROKER_0:PLAINTEXT,AGENT_A:PLAINTEXT");
        assertThat(p.get("inter.broker.listener.name")).isEqualTo("PLAINTEXT");
    }
}
