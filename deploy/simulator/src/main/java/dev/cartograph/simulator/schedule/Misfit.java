package dev.cartograph.simulator.schedule;

/** Why one node cannot take one pod: the fixed vocabulary of unschedulable reasons. */
public enum Misfit {
    NOT_READY("node(s) were not ready"),
    UNSCHEDULABLE("node(s) were unschedulable"),
    NODE_SELECTOR("node(s) didn't match the pod's node selector"),
    NODE_AFFINITY("node(s) didn't match the pod's required node affinity"),
    UNTOLERATED_TAINT("node(s) had untolerated taints"),
    INSUFFICIENT("node(s) had too little free");

    private final String words;

    Misfit(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }
}
