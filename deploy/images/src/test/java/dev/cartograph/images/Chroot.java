package dev.cartograph.images;

import static org.junit.jupiter.api.Assumptions.abort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A command inside an unpacked image, the way a container runtime starts it, with the host's own tools: a private
 * mount and PID namespace ({@code unshare}) with a fresh /proc, then {@code chroot} as the image's user. Every
 * container runtime mounts /proc, and the image needs it: glibc finds {@code bin/java}'s libjli.so through
 * {@code $ORIGIN}, which it reads from /proc/self/exe, and the JVM reads its container limits there. The mounts
 * live in the namespace only, so nothing stays mounted on the host. {@link Processes#stop} ends a command that
 * does not end by itself.
 */
final class Chroot {
    private Chroot() {}

    /** Skips the calling test, saying why, when this machine does not allow it (not root, tools missing). */
    static void requirePermitted() throws IOException, InterruptedException {
        Optional<String> unshare = find("unshare");
        Optional<String> chroot = find("chroot");
        if (unshare.isEmpty() || chroot.isEmpty() || find("mount").isEmpty()) {
            abort("unshare, mount or chroot is not installed (util-linux, mount, coreutils)");
        }
        Processes.Result probe = Processes.run(
                List.of(unshare.get(), "--mount", "--propagation", "private", chroot.get(), "/", "true"), List.of());
        if (probe.exit() != 0) {
            abort("chroot in a private mount namespace is not permitted here (needs root or CAP_SYS_ADMIN and "
                    + "CAP_SYS_CHROOT): " + probe.output().strip());
        }
    }

    /**
     * The host command that runs {@code command} in {@code root} as {@code user}; when {@code readOnly}, the root is
     * bind-mounted read-only and /tmp is a tmpfs, as with a pod's {@code readOnlyRootFilesystem: true} and an
     * emptyDir at /tmp.
     */
    static List<String> command(Path root, String user, boolean readOnly, List<String> command) {
        String r = root.toAbsolutePath().toString();
        String mount = host("mount");
        String proc = mount + " -t proc proc " + r + "/proc";
        String mounts = readOnly
                ? String.join(
                        " && ",
                        mount + " --bind " + r + " " + r,
                        mount + " -o remount,bind,ro " + r + " " + r,
                        proc,
                        mount + " -t tmpfs -o mode=1777 tmpfs " + r + "/tmp")
                : proc;
        String chroot = host("chroot") + " --userspec=" + user + " " + r + " \"$@\"";
        List<String> full = new ArrayList<>(List.of(
                host("unshare"),
                "--mount",
                "--propagation",
                "private",
                "--pid",
                "--fork",
                "--kill-child",
                host("sh"),
                "-c",
                "set -e; " + mounts + "; exec " + chroot,
                "sh"));
        full.addAll(command);
        return List.copyOf(full);
    }

    private static String host(String program) {
        return find(program).orElseThrow(() -> new IllegalStateException(program + " is not on the host's PATH"));
    }

    private static Optional<String> find(String program) {
        List<String> dirs =
                new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin"));
        for (String dir : dirs) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return Optional.of(Path.of(dir, program).toString());
            }
        }
        return Optional.empty();
    }
}
