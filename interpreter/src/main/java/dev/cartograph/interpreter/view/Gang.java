package dev.cartograph.interpreter.view;

import java.util.List;

/**
 * Which pods must be scheduled together. Each {@link Group} is one gang shape, repeated
 * {@code count} times (a LeaderWorkerSet with 3 groups of 4 is one Group with count 3 and
 * minMember 4). {@code minMember} of the workload is the sum over groups of count × minMember;
 * 0 means the definition declares no gang, so its pods are independent. Immutable.
 */
public record Gang(long minMember, List<Group> groups) {
    public static final Gang NONE = new Gang(0, List.of());

    public Gang {
        groups = List.copyOf(groups);
    }

    /** One gang shape: its name, how many such gangs, and the pods each needs at once. */
    public record Group(String name, long count, long minMember, List<Member> members) {
        public Group {
            members = List.copyOf(members);
        }
    }

    /** Pods of one component instance in one gang of the group. */
    public record Member(String component, String instance, long pods) {}
}
