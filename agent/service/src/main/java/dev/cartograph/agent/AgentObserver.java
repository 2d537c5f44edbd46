package dev.cartograph.agent;

import dev.cartograph.protocol.CommandResult;

/**
 * Told what the agent does, for its metrics: each cluster summary Kafka acknowledged, each command carried out
 * with its outcome and how long it took. Called on the agent's publishing thread, Kafka's producer thread and its
 * command thread, so an implementation must be thread-safe, cheap and must not block; it changes nothing the agent
 * does. {@link #NONE} does nothing. The agent keeps no clock for this: {@link #started()} gives a mark that
 * {@link #command} measures from.
 */
public interface AgentObserver {

    /** Kafka acknowledged a cluster summary (a header, with whatever node and placement records changed). */
    void summaryPublished();

    /** A mark taken when a command starts, handed back to {@link #command}. */
    long started();

    /**
     * A command ({@code apply} or {@code delete}) that started at {@code started} was carried out with {@code outcome}.
     */
    void command(String command, CommandResult.Outcome outcome, long started);

    /** Observes nothing. */
    AgentObserver NONE = new AgentObserver() {
        @Override
        public void summaryPublished() {}

        @Override
        public long started() {
            return 0;
        }

        @Override
        public void command(String command, CommandResult.Outcome outcome, long started) {}
    };
}
