package dev.cartograph.local.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An older build of Cartograph for a rolling upgrade's standby ({@link Plan.Target#OLDER_STANDBY}): the commit named
 * by {@code -Dcartograph.fault.old-build=REV}, checked out as a git worktree under {@code target/} and packaged there
 * once (kept for later runs), and a classpath that is the suite's own with each of Cartograph's entries — a module's
 * jar, a module's classes folder — replaced by the older build's. Third-party jars stay the suite's: the older build
 * runs on today's libraries (an image of that build would bring its own). Off unless the property is set: it takes a
 * few minutes to build, so it is for soaks, not for CI.
 */
final class OldBuild {
    static final String PROPERTY = "cartograph.fault.old-build";

    private OldBuild() {}

    /**
     * The older build's classpath when {@link #PROPERTY} names a commit (built into {@code cache} first if needed): the
     * test's classpath with Cartograph's entries replaced. The older build's files are not copied aside: nothing
     * rebuilds them while a run reads them.
     */
    static Optional<Classpath> classpath(Path cache) throws IOException, InterruptedException {
        String rev = System.getProperty(PROPERTY, "").trim();
        if (rev.isEmpty()) {
            return Optional.empty();
        }
        Path repo = repoRoot();
        String commit =
                run(repo, "git", "rev-parse", "--verify", rev + "^{commit}").trim();
        Path tree = cache.resolve("old-build-" + commit.substring(0, 12));
        Path done = tree.resolve(".packaged");
        if (!Files.exists(done)) {
            if (!Files.exists(tree)) {
                run(repo, "git", "worktree", "add", "--detach", tree.toString(), commit);
            }
            run(
                    tree,
                    "mvn",
                    "-B",
                    "-q",
                    "-o",
                    "package",
                    "-DskipTests",
                    "-Dspotless.check.skip=true",
                    "-pl",
                    "broker/service,agent/service",
                    "-am");
            Files.writeString(done, commit);
        }
        List<String> out = new ArrayList<>();
        for (String entry : Classpath.ofTest()) {
            out.add(older(Path.of(entry), repo, tree).orElse(entry));
        }
        return Optional.of(new Classpath(out));
    }

    /** The older build's counterpart of one of Cartograph's entries: a module's jar, or its classes folder. */
    private static Optional<String> older(Path entry, Path repo, Path tree) throws IOException {
        String name = entry.getFileName().toString();
        if (Files.isDirectory(entry) && entry.toAbsolutePath().startsWith(repo)) {
            Path there = tree.resolve(repo.relativize(entry.toAbsolutePath()).toString());
            return Files.isDirectory(there) ? Optional.of(there.toString()) : Optional.empty();
        }
        if (name.startsWith("cartograph-") && name.endsWith(".jar")) {
            try (var found = Files.find(
                    tree,
                    4,
                    (p, a) -> p.getFileName().toString().equals(name)
                            && p.getParent().getFileName().toString().equals("target"))) {
                return found.findFirst().map(Path::toString);
            }
        }
        return Optional.empty();
    }

    private static Path repoRoot() throws IOException, InterruptedException {
        return Path.of(run(Path.of("").toAbsolutePath(), "git", "rev-parse", "--show-toplevel")
                .trim());
    }

    private static String run(Path dir, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(20, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " in " + dir + " failed: " + output);
        }
        return output;
    }
}
