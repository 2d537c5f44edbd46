package dev.cartograph.agent;

import io.micronaut.runtime.Micronaut;

/** The agent service: {@code java -jar cartograph-agent.jar} with {@code cartograph.agent.*} configuration. */
public final class AgentApplication {
    private AgentApplication() {}

    public static void main(String[] args) {
        Micronaut.run(AgentApplication.class, args);
    }
}
