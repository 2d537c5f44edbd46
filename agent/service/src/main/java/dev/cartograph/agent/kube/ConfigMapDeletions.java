package dev.cartograph.agent.kube;

import dev.cartograph.agent.apply.Ownership;
import dev.cartograph.agent.order.CommandOrder;
import dev.cartograph.agent.order.Deletions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import java.time.Clock;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deletes an agent carried out, kept in ConfigMap {@value #NAME} of the agent's own namespace, key
 * {@value #KEY} ({@link Deletions#json}). Writes are read-modify-write with the resourceVersion read, so a concurrent
 * writer (a second agent for the cluster, for the moment until it takes the commands over) makes the write fail with
 * 409 and it is made again over what that writer wrote; 409, 429, 5xx and no answer are tried again with backoff
 * through the applier's retry and circuit breaker ({@link Writes}). A record that cannot be read (edited by hand) is
 * taken for {@link Deletions#forgottenAt} now, logged, and replaced at the next write. Needs get, create and update on
 * ConfigMaps in that namespace. Thread-safe (fabric8's client is).
 */
final class ConfigMapDeletions implements CommandOrder.Store {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigMapDeletions.class);
    static final String NAME = "cartograph-agent-commands";
    static final String KEY = "deletions";

    private final KubernetesClient client;
    private final String namespace;
    private final Writes writes;
    private final Clock clock;

    ConfigMapDeletions(KubernetesClient client, String namespace, Writes writes, Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.writes = writes;
        this.clock = clock;
    }

    @Override
    public Deletions read() {
        try {
            return writes.call(() -> {
                ConfigMap found = configMap().get(); // null when the API server says 404
                return found == null ? Deletions.NONE : decode(found);
            });
        } catch (RuntimeException e) {
            throw unavailable("read", e);
        }
    }

    @Override
    public Deletions update(UnaryOperator<Deletions> change) {
        try {
            return writes.call(() -> {
                try {
                    return write(change);
                } catch (KubernetesClientException e) {
                    if (!ApiAnswer.alreadyExists(e)) {
                        throw e; // a Conflict (409 on update) is transient: tried again from the read
                    }
                    return write(change); // another writer created it first: over what it wrote
                }
            });
        } catch (RuntimeException e) {
            throw unavailable("written", e);
        }
    }

    @Override
    public String describe() {
        return "ConfigMap " + namespace + "/" + NAME;
    }

    private Deletions write(UnaryOperator<Deletions> change) {
        ConfigMap found = configMap().get();
        Deletions next = change.apply(found == null ? Deletions.NONE : decode(found));
        if (found == null) {
            client.configMaps()
                    .inNamespace(namespace)
                    .resource(new ConfigMapBuilder()
                            .withNewMetadata()
                            .withName(NAME)
                            .withNamespace(namespace)
                            .withLabels(Map.of(Ownership.MANAGED_BY_LABEL, Ownership.MANAGED_BY))
                            .endMetadata()
                            .withData(Map.of(KEY, next.json()))
                            .build())
                    .create();
        } else {
            found.setData(Map.of(KEY, next.json()));
            // the resourceVersion read stays on the object: another write since makes this one 409 Conflict
            client.configMaps().inNamespace(namespace).resource(found).update();
        }
        return next;
    }

    private Deletions decode(ConfigMap found) {
        String text = found.getData() == null ? null : found.getData().get(KEY);
        try {
            if (text == null) {
                throw new IllegalArgumentException("it has no key '" + KEY + "'");
            }
            return Deletions.parse(text);
        } catch (IllegalArgumentException e) {
            Deletions reset = Deletions.forgottenAt(clock.instant());
            LOG.warn(
                    "{} cannot be read ({}): every delete in it is taken as forgotten, so commands issued before {}"
                            + " are refused; it is written anew with the next delete",
                    describe(),
                    e.getMessage(),
                    clock.instant());
            return reset;
        }
    }

    private Resource<ConfigMap> configMap() {
        return client.configMaps().inNamespace(namespace).withName(NAME);
    }

    private CommandOrder.Unavailable unavailable(String what, RuntimeException e) {
        String why;
        if (e instanceof CallNotPermittedException) {
            why = "the API server keeps failing, so writes pause for up to 30s (circuit open)";
        } else if (e instanceof KubernetesClientException k) {
            why = ApiAnswer.said(k)
                    + (k.getCode() == 403
                            ? " (the agent needs get, create and update on configmaps in namespace " + namespace + ")"
                            : "");
        } else {
            why = e.toString();
        }
        return new CommandOrder.Unavailable("not " + what + ": " + why, e);
    }
}
