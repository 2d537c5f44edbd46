package dev.cartograph.broker.access;

/** The answer to a {@link Question}: allowed, denied with the authorizer's reason, or not known now. */
public sealed interface Verdict permits Verdict.Allowed, Verdict.Denied, Unavailable {

    Verdict ALLOWED = new Allowed();

    record Allowed() implements Verdict {}

    /**
     * Not allowed.
     *
     * @param reason what the authorizer said, possibly empty
     */
    record Denied(Question question, String reason) implements Verdict {
        /** {@code may not create pytorchjobs.kubeflow.org in namespace team-a (RBAC: …)}: for the 403 body. */
        public String message(Caller caller) {
            return caller.user() + " may not " + question + (reason.isBlank() ? "" : " (" + reason + ")");
        }
    }
}
