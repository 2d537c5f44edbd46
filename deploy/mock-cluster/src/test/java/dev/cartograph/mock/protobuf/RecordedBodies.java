package dev.cartograph.mock.protobuf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The protobuf request bodies kubectl 1.32.4 sent for {@code kubectl create ...}, recorded in
 * {@code src/test/resources/protobuf} as its {@code -v=8} hex dumps (each file's first line says which command).
 */
public final class RecordedBodies {
    private RecordedBodies() {}

    /** The bytes of {@code protobuf/NAME.hex}: per line an offset, 16 hex bytes, then the text between bars. */
    public static byte[] of(String name) throws IOException {
        try (InputStream in = RecordedBodies.class.getResourceAsStream("/protobuf/" + name + ".hex")) {
            if (in == null) {
                throw new IOException("no recorded body protobuf/" + name + ".hex");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                for (String b : line.substring(line.indexOf(' '), line.indexOf('|'))
                        .trim()
                        .split("\\s+")) {
                    out.write(Integer.parseInt(b, 16));
                }
            }
            return out.toByteArray();
        }
    }
}
