package dev.cartograph.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The local fleet's one REST API caller: a random token (32 bytes from {@link SecureRandom}, base64url),
 * new on every start, in {@code <data>/broker.token} for {@code carto} and curl, and the static token file
 * the broker reads ({@code <data>/broker-tokens.csv}, user {@code cartograph-admin}). Both are created
 * readable and writable by their owner only (POSIX 0600) before the token is written into them.
 * Immutable.
 *
 * @param token     the token's text
 * @param file      {@code broker.token}: the token alone, for {@code export CARTOGRAPH_TOKEN=$(cat FILE)}
 * @param tokenFile the broker's static token file
 */
public record AdminToken(String token, Path file, Path tokenFile) {
    public static final String USER = "cartograph-admin";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    static AdminToken create(Path data, SecureRandom random) throws IOException {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Path file = ownerOnly(data.resolve("broker.token"), token + "\n");
        Path tokenFile = ownerOnly(
                data.resolve("broker-tokens.csv"),
                "# the local fleet's broker API callers (token,user,uid,\"groups\"); new on every start\n" + token + ","
                        + USER + ",,\"system:masters\"\n");
        return new AdminToken(token, file, tokenFile);
    }

    /** Replaces {@code file} with one only its owner may read and write, then writes {@code text} into it. */
    private static Path ownerOnly(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            Files.setPosixFilePermissions(file, OWNER_ONLY); // the umask may have narrowed, never widened, it
        } else {
            Files.createFile(file);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING);
        return file;
    }

    @Override
    public String toString() {
        return "AdminToken[file=" + file + ", tokenFile=" + tokenFile + "]";
    }
}
