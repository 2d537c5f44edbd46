package dev.cartograph.kube.crd;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes version priority, highest first: GA before beta before alpha, higher numbers first
 * ({@code v2 > v1 > v1beta2 > v1beta1 > v1alpha1}); names that are not Kubernetes-like sort last,
 * alphabetically. The same order the API server uses to pick a group's preferred version.
 * Pure; thread-safe.
 */
public final class VersionPriority {
    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    /** Orders versions from highest to lowest priority. */
    public static final Comparator<String> HIGHEST_FIRST = VersionPriority::compareHighestFirst;

    private VersionPriority() {}

    private static int compareHighestFirst(String a, String b) {
        long ra = rank(a);
        long rb = rank(b);
        if (ra != rb) {
            return Long.compare(rb, ra);
        }
        return a.compareTo(b);
    }

    /** Larger is higher priority; -1 for names that are not Kubernetes versions. */
    private static long rank(String version) {
        Matcher m = KUBE_VERSION.matcher(version);
        if (!m.matches()) {
            return -1;
        }
        long major = Long.parseLong(m.group(1));
        int stability = m.group(2) == null ? 2 : "beta".equals(m.group(2)) ? 1 : 0;
        long minor = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
        return stability * 1_000_000_000L + major * 10_000L + minor;
    }
}
