/**
 * What a {@code MockApiServer} answered: one {@link dev.cartograph.mock.requestlog.LoggedRequest} per request (time,
 * user, verb, path, code, fault, latency) in a bounded in-memory {@link dev.cartograph.mock.requestlog.RequestLog}
 * and, when asked, in a JSON-lines file, so an end-to-end run can keep the member API servers' own request logs.
 */
package dev.cartograph.mock.requestlog;
