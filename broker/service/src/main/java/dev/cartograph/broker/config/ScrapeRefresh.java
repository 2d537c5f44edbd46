package dev.cartograph.broker.config;

import dev.cartograph.broker.metrics.ViewMetrics;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.ServerFilterPhase;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;

/**
 * Before the Prometheus endpoint answers, brings the gauges read from the broker's view up to date
 * ({@link ViewMetrics#refresh}). Runs after the access filter, so only an authenticated scrape costs a refresh.
 * Thread-safe.
 */
@ServerFilter("/prometheus")
@io.micronaut.context.annotation.Requires(beans = ViewMetrics.class)
public class ScrapeRefresh implements Ordered {
    private final ViewMetrics metrics;

    public ScrapeRefresh(ViewMetrics metrics) {
        this.metrics = metrics;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    public void refresh(HttpRequest<?> request) {
        metrics.refresh();
    }

    @Override
    public int getOrder() {
        return ServerFilterPhase.SECURITY.after();
    }
}
