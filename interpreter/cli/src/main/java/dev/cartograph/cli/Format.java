package dev.cartograph.cli;

/** Human units for CPU and memory. Pure. */
final class Format {
    private Format() {
    }

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
}
