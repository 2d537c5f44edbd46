package dev.cartograph.cli;

/** Human units for CPU and memory. Pure. */
final class Format {
    private Format() {}

    static String cpu(long millis) {
        if (millis == 0) {
            return "0";
        }
        return millis % 1000 == 0 ? String.valueOf(millis / 1000) : millis + "m";
    }

    static String bytes(long bytes) {
        if (bytes == 0) {
            return "0";
        }
        String[] units = {"Ki", "Mi", "Gi", "Ti", "Pi"};
        long value = bytes;
        String unit = "";
        for (String u : units) {
            if (value % 1024 != 0) {
                break;
            }
            value /= 1024;
            unit = u;
        }
        return value + unit;
    }

    /** kubectl's AGE column: 45s, 12m, 5h, 3d. */
    static String age(dev.cartograph.interpreter.view.WorkloadView view, java.time.Clock clock) {
        return view.identity()
                .creationTimestamp()
                .map(t -> {
                    long s = java.time.Duration.between(t, clock.instant()).getSeconds();
                    if (s < 0) {
                        return "0s";
                    }
                    return s < 120
                            ? s + "s"
                            : s < 7200 ? s / 60 + "m" : s < 172_800 ? s / 3600 + "h" : s / 86_400 + "d";
                })
                .orElse("-");
    }
}
