package dev.cartograph.mock.protobuf;

import java.nio.charset.StandardCharsets;

/** The {@code runtime.Unknown} around a protobuf object: its type, its bytes, and how they are encoded. Immutable. */
record Envelope(String apiVersion, String kind, byte[] raw, String contentEncoding) {
    static Envelope read(WireReader reader) {
        String apiVersion = "";
        String kind = "";
        byte[] raw = new byte[0];
        String encoding = "";
        while (!reader.atEnd()) {
            long tag = reader.varint();
            if ((tag & 7) != WireReader.LENGTH_DELIMITED) {
                throw new WireReader.MalformedProtobufException(
                        "field " + (tag >>> 3) + " of Unknown is not length-delimited");
            }
            byte[] bytes = reader.lengthDelimited();
            switch ((int) (tag >>> 3)) {
                case 1 -> {
                    WireReader typeMeta = new WireReader(bytes);
                    while (!typeMeta.atEnd()) {
                        long field = typeMeta.varint() >>> 3;
                        String value = new String(typeMeta.lengthDelimited(), StandardCharsets.UTF_8);
                        if (field == 1) {
                            apiVersion = value;
                        } else if (field == 2) {
                            kind = value;
                        }
                    }
                }
                case 2 -> raw = bytes;
                case 3 -> encoding = new String(bytes, StandardCharsets.UTF_8);
                default -> {
                    // 4: contentType, empty for protobuf
                }
            }
        }
        return new Envelope(apiVersion, kind, raw, encoding);
    }
}
