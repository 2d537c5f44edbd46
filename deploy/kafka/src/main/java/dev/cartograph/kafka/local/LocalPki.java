package dev.cartograph.kafka.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A throwaway certificate authority for a local Kafka with TLS (tests and local demos only): a CA,
 * a PKCS12 trust store holding it, and PKCS12 key stores with a key and a certificate the CA signed,
 * one per common name. Made with the JDK's own {@code keytool} (run as a process: the JDK has no
 * public API to sign a certificate), so no library is needed; EC P-256 keys, valid 30 days.
 *
 * <p>Every store has the same password, {@link #password()}: these keys protect nothing beyond one
 * test run. Stores live in the directory given to {@link #open}; opening it again reuses the CA and
 * every key store already there.
 *
 * <p>Thread safety: {@link #keyStore} is {@code synchronized}; the rest is immutable.
 */
public final class LocalPki {

    /** The CN of the CA's own certificate. */
    public static final String CA_NAME = "cartograph-local-ca";

    /** A common name that cannot smuggle more attributes into a distinguished name (no ',', '=', '+'). */
    private static final Pattern COMMON_NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9._-]{0,62}");

    private static final String PASSWORD = "local-pki-secret";
    private static final String STORE_TYPE = "PKCS12";
    private static final String VALIDITY_DAYS = "30";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

    private final Path dir;

    private LocalPki(Path dir) {
        this.dir = dir;
    }

    /**
     * The PKI in {@code dir}: made there (a CA and a trust store) unless it already is.
     *
     * @param dir a directory owned by this PKI (created if missing)
     */
    public static LocalPki open(Path dir) {
        Objects.requireNonNull(dir, "dir");
        LocalPki pki = new LocalPki(dir.toAbsolutePath());
        pki.makeCaIfMissing();
        return pki;
    }

    /** The directory holding the stores. */
    public Path dir() {
        return dir;
    }

    /** The password of every store this PKI makes. */
    public String password() {
        return PASSWORD;
    }

    /** The type of every store this PKI makes: {@code PKCS12}. */
    public String storeType() {
        return STORE_TYPE;
    }

    /** The PKCS12 trust store holding only the CA's certificate. */
    public Path trustStore() {
        return dir.resolve("truststore.p12");
    }

    /**
     * A PKCS12 key store with a key and a certificate for subject {@code CN=commonName} signed by
     * this CA (the chain includes the CA), made on the first call for that name and reused after.
     * The certificate serves both TLS servers and clients; {@code subjectAltNames} (keytool's form,
     * e.g. {@code dns:localhost}, {@code ip:127.0.0.1}) are what a client checks a server against.
     *
     * @param commonName letters, digits, '.', '_' and '-', at most 63; names the store file too
     */
    public synchronized Path keyStore(String commonName, List<String> subjectAltNames) {
        if (commonName == null || !COMMON_NAME.matcher(commonName).matches() || commonName.equals(CA_NAME)) {
            throw new IllegalArgumentException("common name '" + commonName
                    + "' must be letters, digits, '.', '_' or '-' (at most 63) and not " + CA_NAME);
        }
        Path store = dir.resolve(commonName + ".p12");
        if (Files.exists(store)) {
            return store;
        }
        Path work = dir.resolve(commonName + ".tmp.p12");
        Path request = dir.resolve(commonName + ".csr");
        Path signed = dir.resolve(commonName + ".pem");
        try {
            Files.deleteIfExists(work);
            keytool(
                    "-genkeypair",
                    "-alias",
                    commonName,
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=" + commonName,
                    "-validity",
                    VALIDITY_DAYS,
                    "-keystore",
                    work.toString(),
                    "-storetype",
                    STORE_TYPE,
                    "-storepass",
                    PASSWORD,
                    "-keypass",
                    PASSWORD);
            keytool(
                    "-certreq",
                    "-alias",
                    commonName,
                    "-keystore",
                    work.toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    request.toString());
            List<String> sign = new ArrayList<>(List.of(
                    "-gencert",
                    "-alias",
                    "ca",
                    "-keystore",
                    caStore().toString(),
                    "-storepass",
                    PASSWORD,
                    "-infile",
                    request.toString(),
                    "-outfile",
                    signed.toString(),
                    "-rfc",
                    "-validity",
                    VALIDITY_DAYS,
                    "-ext",
                    "EKU=serverAuth,clientAuth"));
            if (!subjectAltNames.isEmpty()) {
                sign.addAll(List.of("-ext", "SAN=" + String.join(",", subjectAltNames)));
            }
            keytool(sign.toArray(String[]::new));
            // the CA first, so keytool can build the chain of the signed certificate
            importCertificate(work, "ca", caCertificate());
            importCertificate(work, commonName, signed);
            Files.move(work, store, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(request);
            Files.deleteIfExists(signed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the key store of " + commonName + " in " + dir, e);
        }
        return store;
    }

    @Override
    public String toString() {
        return "LocalPki[" + dir + "]";
    }

    private Path caStore() {
        return dir.resolve("ca.p12");
    }

    private Path caCertificate() {
        return dir.resolve("ca.pem");
    }

    private synchronized void makeCaIfMissing() {
        if (Files.exists(trustStore())) {
            return;
        }
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(caStore());
            keytool(
                    "-genkeypair",
                    "-alias",
                    "ca",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=" + CA_NAME,
                    "-validity",
                    VALIDITY_DAYS,
                    "-ext",
                    "bc:c",
                    "-keystore",
                    caStore().toString(),
                    "-storetype",
                    STORE_TYPE,
                    "-storepass",
                    PASSWORD,
                    "-keypass",
                    PASSWORD);
            keytool(
                    "-exportcert",
                    "-alias",
                    "ca",
                    "-rfc",
                    "-keystore",
                    caStore().toString(),
                    "-storepass",
                    PASSWORD,
                    "-file",
                    caCertificate().toString());
            Path work = dir.resolve("truststore.tmp.p12");
            Files.deleteIfExists(work);
            importCertificate(work, "ca", caCertificate());
            Files.move(work, trustStore(), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a CA in " + dir, e);
        }
    }

    /** Runs the JDK's keytool; its output becomes part of the exception when it fails. */
    private void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(
                        "keytool " + args[0] + " did not finish in " + KEYTOOL_TIMEOUT_SECONDS + " s");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("keytool " + args[0] + " failed (exit " + process.exitValue() + "): "
                        + new String(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run keytool from " + System.getProperty("java.home"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running keytool " + args[0], e);
        }
    }

    /** Adds {@code certificate} to the PKCS12 store {@code store} under {@code alias}. */
    private void importCertificate(Path store, String alias, Path certificate) {
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                alias,
                "-file",
                certificate.toString(),
                "-keystore",
                store.toString(),
                "-storetype",
                STORE_TYPE,
                "-storepass",
                PASSWORD);
    }
}
