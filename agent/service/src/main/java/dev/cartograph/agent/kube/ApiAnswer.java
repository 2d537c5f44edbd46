package dev.cartograph.agent.kube;

import dev.cartograph.protocol.CommandResult;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What an API server's error answer means for a command. Transient (worth retrying, never final):
 * no answer or a time-out, 401 (credentials being rotated), 408, 409 Conflict (a concurrent write),
 * 429 and every 5xx. Every other answer is the server's refusal — 403 Forbidden by RBAC or an
 * admission webhook, 400, 404 (namespace or kind missing), 422 Invalid — and is final, reported with
 * the server's own message. Pure.
 */
final class ApiAnswer {
    private ApiAnswer() {}

    static boolean isTransient(Throwable t) {
        if (!(t instanceof KubernetesClientException e)) {
            return false;
        }
        int code = e.getCode();
        return code <= 0
                || code == 401
                || code == 408
                || code == 409 && !alreadyExists(e)
                || code == 429
                || code >= 500;
    }

    /** 409 with reason AlreadyExists (a create whose name is taken), as opposed to a Conflict on update. */
    static boolean alreadyExists(KubernetesClientException e) {
        return e.getCode() == 409
                && (e.getStatus() == null
                        || e.getStatus().getReason() == null
                        || "AlreadyExists".equals(e.getStatus().getReason()));
    }

    /** What the API server said, or that it said nothing: {@code the API server answered 429 TooManyRequests: …}. */
    static String said(KubernetesClientException e) {
        return e.getCode() <= 0
                ? "the API server did not answer (" + rootMessage(e) + ")"
                : "the API server answered " + answer(e);
    }

    /** The outcome of a write that ended in {@code e} after {@code attempts} tries. */
    static KubeApplier.Outcome of(KubernetesClientException e, int attempts) {
        if (isTransient(e)) {
            String what = said(e);
            return new KubeApplier.Outcome(
                    CommandResult.Outcome.RETRY,
                    "not written for now: " + what + ", " + attempts + (attempts == 1 ? " attempt" : " attempts"));
        }
        return new KubeApplier.Outcome(CommandResult.Outcome.FAILED, "the API server refused it: " + answer(e));
    }

    /** {@code 422 Invalid: Job.batch "x" is invalid: …}: the code, the reason and the server's message with its causes. */
    private static String answer(KubernetesClientException e) {
        Status status = e.getStatus();
        if (status == null) {
            return e.getCode() + ": " + e.getMessage();
        }
        String message =
                status.getMessage() == null || status.getMessage().isBlank() ? e.getMessage() : status.getMessage();
        List<StatusCause> causes =
                status.getDetails() == null || status.getDetails().getCauses() == null
                        ? List.of()
                        : status.getDetails().getCauses();
        String unsaid = causes.stream()
                .filter(c -> c.getMessage() != null && !message.contains(c.getMessage()))
                .map(c -> (c.getField() == null ? "" : c.getField() + ": ") + c.getMessage())
                .collect(Collectors.joining("; "));
        return e.getCode()
                + (status.getReason() == null || status.getReason().isBlank() ? "" : " " + status.getReason()) + ": "
                + message + (unsaid.isEmpty() ? "" : " (" + unsaid + ")");
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null
                ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
