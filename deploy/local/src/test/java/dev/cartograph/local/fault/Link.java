package dev.cartograph.local.fault;

import dev.cartograph.local.fault.net.TcpProxy;
import java.util.List;

/**
 * The network between one process and a service it uses, as the proxies it goes through (one per Kafka node, or the
 * one in front of an API server): cut both ways or one way, and healed, all proxies at once. Thread-safe.
 *
 * @param name    what links to what, for the timeline
 * @param proxies every proxy on the way
 */
record Link(String name, List<TcpProxy> proxies) implements AutoCloseable {
    Link {
        proxies = List.copyOf(proxies);
    }

    /** Holds back the bytes both ways on every proxy. */
    void cut() {
        proxies.forEach(TcpProxy::cut);
    }

    /** Holds back the bytes going {@code direction} only. */
    void cut(TcpProxy.Direction direction) {
        proxies.forEach(p -> p.cut(direction));
    }

    void heal() {
        proxies.forEach(TcpProxy::heal);
    }

    @Override
    public void close() {
        proxies.forEach(TcpProxy::close);
    }

    @Override
    public String toString() {
        return name;
    }
}
