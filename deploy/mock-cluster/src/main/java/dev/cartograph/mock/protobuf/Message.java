package dev.cartograph.mock.protobuf;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A protobuf message type: its name and the fields this decoder knows. Immutable. */
record Message(String name, Map<Integer, Field> fields) {
    Message {
        fields = Map.copyOf(fields);
    }

    static Message of(String name, Field... fields) {
        return new Message(name, Arrays.stream(fields).collect(Collectors.toMap(Field::number, Function.identity())));
    }

    Optional<Field> field(int number) {
        return Optional.ofNullable(fields.get(number));
    }
}
