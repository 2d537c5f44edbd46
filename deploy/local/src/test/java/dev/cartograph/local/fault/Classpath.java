package dev.cartograph.local.fault;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The classpath of the fault suite's child JVMs: the test's own, with Cartograph's own entries (its module folders
 * and jars, from the reactor or the local repository) copied aside first. A child reads classes lazily for as long as it runs; without
 * the copy, a {@code mvn install} in the same working tree during a run replaces the jar under it and a broker
 * fails with {@code NoClassDefFoundError} in the middle of the suite. Immutable.
 */
record Classpath(List<String> entries) {
    Classpath {
        entries = List.copyOf(entries);
    }

    /** The test's classpath, Cartograph's own entries copied into {@code into}. */
    static Classpath snapshot(Path into) {
        List<String> out = new ArrayList<>();
        int n = 0;
        for (String entry : ofTest()) {
            Path p = Path.of(entry);
            boolean own = Files.isDirectory(p)
                    || p.getFileName().toString().startsWith("cartograph-") // a module's jar, in a reactor
                    || entry.contains(File.separator + "dev" + File.separator + "cartograph" + File.separator);
            if (!own || !Files.exists(p)) {
                out.add(entry);
                continue;
            }
            Path copy = into.resolve(String.format("%02d-%s", n++, p.getFileName()));
            copy(p, copy);
            out.add(copy.toString());
        }
        return new Classpath(out);
    }

    /** This classpath without the entries that hold {@code className} (a folder or a jar). */
    Classpath without(String className) {
        Predicate<String> holding = holding(className);
        return new Classpath(entries.stream().filter(holding.negate()).toList());
    }

    private static Predicate<String> holding(String className) {
        String file = className.replace('.', '/') + ".class";
        return entry -> {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                return Files.exists(p.resolve(file));
            }
            if (!entry.endsWith(".jar") || !Files.exists(p)) {
                return false;
            }
            try (JarFile jar = new JarFile(p.toFile())) {
                return jar.getEntry(file) != null;
            } catch (IOException e) {
                return false;
            }
        };
    }

    /** The test's own classpath, expanded from a manifest-only booter jar when the test runner uses one. */
    static List<String> ofTest() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = List.of(cp.split(File.pathSeparator));
        if (entries.size() == 1 && entries.get(0).endsWith(".jar")) {
            return fromManifest(Path.of(entries.get(0)));
        }
        return entries;
    }

    private static List<String> fromManifest(Path jar) {
        try (JarFile f = new JarFile(jar.toFile())) {
            String classPath = f.getManifest() == null
                    ? null
                    : f.getManifest().getMainAttributes().getValue("Class-Path");
            if (classPath == null) {
                return List.of(jar.toString());
            }
            List<String> out = new ArrayList<>();
            for (String url : classPath.trim().split("\\s+")) {
                out.add(Path.of(
                                url.startsWith("file:")
                                        ? URI.create(url)
                                        : jar.getParent().toUri().resolve(url))
                        .toString());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the classpath from " + jar, e);
        }
    }

    private static void copy(Path from, Path to) {
        try {
            if (!Files.isDirectory(from)) {
                Files.createDirectories(to.getParent());
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                return;
            }
            try (Stream<Path> walk = Files.walk(from)) {
                for (Path p : walk.toList()) {
                    Path target = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " to " + to, e);
        }
    }
}
