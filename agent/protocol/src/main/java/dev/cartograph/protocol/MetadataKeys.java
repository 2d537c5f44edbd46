package dev.cartograph.protocol;

/**
 * Cartograph's own label, annotation and finalizer keys ({@code cartograph.dev/*}) on hub objects and
 * their member copies: the one place they are spelled. Users set some (what to federate, where it may
 * run, how it ranks); the broker writes others on the hub object (where it runs, its phase, why it
 * waits, the placement epoch); the agent marks the member copy (placement id, epoch, whether Kafka has it as started). Constants only;
 * thread-safe.
 */
public final class MetadataKeys {
    /** The prefix of every Cartograph key; the broker strips the others of its own from what it forwards. */
    public static final String PREFIX = "cartograph.dev/";

    /** Label (on an object or its namespace) that asks the broker to federate it; the default selector is {@code =true}. */
    public static final String FEDERATE_LABEL = PREFIX + "federate";
    /** The default federation selector, {@code key=value}. */
    public static final String FEDERATE_DEFAULT = FEDERATE_LABEL + "=true";
    /** Annotation a user sets: cluster labels the object may run on, {@code key=value,key=value}. */
    public static final String CLUSTER_SELECTOR_ANNOTATION = PREFIX + "cluster-selector";
    /** Annotation a user sets: the object's priority, an integer (higher places first). */
    public static final String PRIORITY_ANNOTATION = PREFIX + "priority";

    /** Finalizer the broker holds on a placed hub object until its member copy is gone. */
    public static final String FINALIZER = PREFIX + "placement";
    /** Hub label: the member cluster the object runs on (absent while it waits). */
    public static final String CLUSTER_LABEL = PREFIX + "cluster";
    /** Hub label: the broker's phase of the object (Placed, Queued, Running, Failed…). */
    public static final String PHASE_LABEL = PREFIX + "phase";
    /** Hub annotation: why the object waits or failed, in words with the numbers. */
    public static final String REASON_ANNOTATION = PREFIX + "reason";
    /**
     * Annotation with the placement's fencing epoch: on the hub object, the epoch the broker placed it at;
     * on the member copy, the epoch the agent applied (an older command never overwrites a newer copy).
     */
    public static final String EPOCH_ANNOTATION = PREFIX + "epoch";
    /**
     * Member annotation the agent writes on a copy once Kafka has acknowledged a summary of it saying it had started:
     * the copy's epoch at that summary. The broker keeps a gang it last heard had started when its cluster goes
     * silent (ADR 0005), so an agent restarted while cut off from Kafka keeps such a copy too; a copy re-applied at
     * another epoch does not inherit it.
     */
    public static final String STARTED_REPORTED_ANNOTATION = PREFIX + "started-reported";
    /** Member label: the placement a copy was created for, so an agent finds it again after a restart. */
    public static final String PLACEMENT_ID_LABEL = PREFIX + "placement-id";
    /**
     * Member label, value {@code true}: a ConfigMap, Secret, ServiceAccount or PersistentVolumeClaim an agent created
     * because a workload it applied needs it (with {@code app.kubernetes.io/managed-by=cartograph-agent}).
     */
    public static final String DEPENDENCY_LABEL = PREFIX + "dependency";
    /**
     * Prefix of the member labels that say which placements use a dependency copy, one label per placement:
     * {@code used-by.cartograph.dev/<placement id>} (a hash of the id when the id is not a valid label name).
     */
    public static final String USED_BY_PREFIX = "used-by." + PREFIX;

    private MetadataKeys() {}
}
