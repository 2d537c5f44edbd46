package dev.cartograph.fleet;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The node label keys that name topology levels, widest first (zone, rack, NVLink domain…): a node's value of one
 * is its domain at that level. Validated: each a Kubernetes label key, none twice, at least one. Immutable.
 */
public record TopologyLevels(List<String> keys) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final Pattern PREFIX =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** The zone, a rack, and the NVLink domain the NVIDIA GPU operator labels nodes with (after the patterns it is checked with). */
    public static final TopologyLevels DEFAULT =
            new TopologyLevels(List.of("topology.kubernetes.io/zone", "cartograph.dev/rack", "nvidia.com/gpu.clique"));

    /** {@link #DEFAULT} as a setting's text (a constant: settings' defaults are annotations). */
    public static final String DEFAULT_TEXT = "topology.kubernetes.io/zone,cartograph.dev/rack,nvidia.com/gpu.clique";

    public TopologyLevels {
        keys = List.copyOf(keys);
        List<String> problems = new ArrayList<>();
        if (keys.isEmpty()) {
            problems.add("at least one level is needed");
        }
        Set<String> seen = new HashSet<>();
        for (String key : keys) {
            if (!isLabelKey(key)) {
                problems.add("'" + key + "' is not a label key (prefix/name, e.g. topology.kubernetes.io/zone)");
            } else if (!seen.add(key)) {
                problems.add(key + " is named twice");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
    }

    /** Each entry of a list as configured (a comma-separated value), trimmed; blank entries are dropped. */
    public static TopologyLevels of(List<String> configured) {
        List<String> keys = new ArrayList<>();
        for (String entry : configured) {
            for (String key : entry.split(",")) {
                if (!key.isBlank()) {
                    keys.add(key.trim());
                }
            }
        }
        return new TopologyLevels(keys);
    }

    public boolean contains(String key) {
        return keys.contains(key);
    }

    static boolean isLabelKey(String key) {
        int slash = key.indexOf('/');
        String name = slash < 0 ? key : key.substring(slash + 1);
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            if (prefix.isEmpty()
                    || prefix.length() > 253
                    || !PREFIX.matcher(prefix).matches()) {
                return false;
            }
        }
        return NAME.matcher(name).matches();
    }
}
