package dev.cartograph.broker.coordinate;

/** The fixed vocabulary of Events the broker writes on hub objects, with their Kubernetes type. */
public enum EventReason {
    /** decided and durable; the apply is on its way to the cluster */
    Placed(false),
    /** fits nowhere now; the message says why per cluster */
    Unschedulable(true),
    /** the member's agent created or updated its copy */
    Forwarded(false),
    Running(false),
    Completed(false),
    Failed(true),
    /** the object cannot be federated as written (bad numbers, no definition, over a budget); the message names the field */
    Invalid(true),
    /** its pod templates break its namespace's pod security level; never sent to a member, the message lists every violation */
    PodSecurity(true),
    /** the cluster went silent past the failover timeout */
    ClusterLost(true),
    /** the member could not start the gang in time, or refused it for a reason another cluster may not have: placed again */
    Requeued(true),
    /** a change to a placed gang was not sent to its cluster (it does not fit there, or cannot be read); the message says why */
    NotForwarded(true),
    /** the hub object is being deleted; so is its member copy */
    Deleting(true),
    /** a member refused the copy; the gang is tried on another cluster */
    Refused(true),
    /** suspended on the hub: the member copy is suspended and its capacity released */
    Suspended(false),
    /** taken off its cluster to make room for a gang its queue may not keep out (ADR 0006); it waits to be placed again */
    Preempted(true),
    /** resumed on the hub: placed again */
    Resumed(false),
    /** a ConfigMap, Secret, ServiceAccount or claim its pods need does not exist on the hub */
    MissingDependency(true),
    /**
     * placed, but the broker had lost its record (a placements topic recreated, a standby that could not read it): its
     * record was made again from where its copy runs and what its hub object says, and nothing of it was moved
     */
    Recovered(true);

    private final boolean warning;

    EventReason(boolean warning) {
        this.warning = warning;
    }

    /** {@code Warning} or {@code Normal}, as Kubernetes Events spell it. */
    public String type() {
        return warning ? "Warning" : "Normal";
    }
}
