package dev.cartograph.broker.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the static token file at start, warning when others than its owner may read it. */
final class TokenFiles {
    private static final Logger LOG = LoggerFactory.getLogger(TokenFiles.class);
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE);

    private TokenFiles() {}

    static String read(Path file) {
        try {
            String text = Files.readString(file);
            try {
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
                if (perms.stream().anyMatch(OTHERS::contains)) {
                    LOG.warn(
                            "the token file {} can be read or written by others than its owner ({}): chmod 600 it",
                            file,
                            java.nio.file.attribute.PosixFilePermissions.toString(perms));
                }
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: nothing to check
            }
            return text;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cartograph.broker.auth-token-file " + file + " cannot be read: " + e.getMessage(), e);
        }
    }
}
