package dev.cartograph.agent;

import dev.cartograph.protocol.launch.ServiceCommandLine;
import io.micronaut.runtime.Micronaut;
import java.util.List;

/** The agent service: {@code java -jar cartograph-agent.jar} with {@code cartograph.agent.*} configuration. */
public final class AgentApplication {
    private static final String USAGE = """
            The member-cluster agent. Configuration by environment (or -Dcartograph.agent.* properties, docs/operations.md):
              CARTOGRAPH_AGENT_CLUSTER             this member cluster's name in the fleet (required)
              CARTOGRAPH_AGENT_BOOTSTRAP_SERVERS   Kafka bootstrap servers (other Kafka settings: CARTOGRAPH_AGENT_KAFKA_*)
              CARTOGRAPH_AGENT_KUBECONFIG          the member's kubeconfig (default: in-cluster service account)
              CARTOGRAPH_AGENT_ALLOWED_NAMESPACES  comma-separated namespaces the agent may write to (default: any but the system namespaces)
              CARTOGRAPH_AGENT_PORT                HTTP port of /health (default 8081)
            Options: --help, --version; anything else starts the agent.""";

    private AgentApplication() {}

    public static void main(String[] args) {
        var answer = new ServiceCommandLine("cartograph-agent", USAGE, AgentApplication.class.getClassLoader())
                .answer(List.of(args));
        if (answer.isPresent()) {
            System.out.println(answer.get());
            return;
        }
        Micronaut.run(AgentApplication.class, args);
    }
}
