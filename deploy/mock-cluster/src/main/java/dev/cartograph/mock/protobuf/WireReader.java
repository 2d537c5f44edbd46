package dev.cartograph.mock.protobuf;

import java.util.Arrays;

/** Reads protocol buffers' wire format from a byte array: tags, varints, length-delimited fields. Not thread-safe (a cursor). */
final class WireReader {
    static final int VARINT = 0;
    static final int LENGTH_DELIMITED = 2;

    private final byte[] data;
    private int position;

    WireReader(byte[] data) {
        this.data = data;
    }

    boolean atEnd() {
        return position >= data.length;
    }

    long varint() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (atEnd()) {
                throw new MalformedProtobufException("the message ends inside a varint");
            }
            byte b = data[position++];
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new MalformedProtobufException("a varint longer than 10 bytes");
    }

    byte[] lengthDelimited() {
        long length = varint();
        if (length < 0 || length > data.length - position) {
            throw new MalformedProtobufException(
                    "a field of " + length + " bytes where " + (data.length - position) + " remain");
        }
        byte[] bytes = Arrays.copyOfRange(data, position, position + (int) length);
        position += (int) length;
        return bytes;
    }

    /** Not a well-formed protobuf message. */
    static final class MalformedProtobufException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MalformedProtobufException(String message) {
            super(message);
        }
    }
}
