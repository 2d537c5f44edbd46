package dev.cartograph.agent.kafka;

import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.FencedInstanceIdException;

/** Kafka failures the command loop must not retry: it stops and its status says why. Stateless. */
final class Refusals {
    private Refusals() {}

    /** A newer incarnation joined with the same static member id: two agents must not serve one cluster. */
    static boolean replaced(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof FencedInstanceIdException) {
                return true;
            }
        }
        return false;
    }

    /** Credentials, permissions or settings Kafka refuses: retrying cannot help, a person has to. */
    static boolean unrecoverable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof AuthenticationException || c instanceof AuthorizationException) {
                return true;
            }
            if (c instanceof ConfigException config) {
                // unresolvable bootstrap names are often DNS not ready yet (a pod starting): worth waiting for
                return config.getMessage() == null || !config.getMessage().contains("resolvable bootstrap");
            }
        }
        return false;
    }
}
