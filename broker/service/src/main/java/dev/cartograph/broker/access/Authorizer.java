package dev.cartograph.broker.access;

/** Whether a caller may do what a question asks. Implementations are thread-safe and never throw. */
public interface Authorizer {
    Verdict authorize(Caller caller, Question question);

    /** Every caller may do everything: the static token file's users (documented in docs/api-access.md). */
    Authorizer ALLOW_ALL = (caller, question) -> Verdict.ALLOWED;
}
