package dev.cartograph.agent.config;

import dev.cartograph.agent.metrics.AgentMetrics;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/** Before the Prometheus endpoint answers, brings the informer gauges up to date ({@link AgentMetrics#refresh}). */
@ServerFilter("/prometheus")
@Requires(beans = AgentMetrics.class)
public class ScrapeRefresh {
    private final AgentMetrics metrics;

    public ScrapeRefresh(AgentMetrics metrics) {
        this.metrics = metrics;
    }

    @RequestFilter
    public void refresh(HttpRequest<?> request) {
        metrics.refresh();
    }
}
