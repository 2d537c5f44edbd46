package dev.cartograph.mock.fleet;

import java.util.List;
import java.util.stream.Collectors;

/** A fleet profile could not be used; lists every problem. Retrying will not help: fix the profile. */
public final class InvalidFleetProfileException extends IllegalArgumentException {
    private final transient List<ProfileProblem> problems;

    public InvalidFleetProfileException(List<ProfileProblem> problems) {
        super("invalid fleet profile:\n  "
                + problems.stream().map(ProfileProblem::toString).collect(Collectors.joining("\n  ")));
        this.problems = List.copyOf(problems);
    }

    public List<ProfileProblem> problems() {
        return problems;
    }
}
