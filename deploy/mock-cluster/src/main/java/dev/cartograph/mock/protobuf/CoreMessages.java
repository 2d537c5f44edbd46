package dev.cartograph.mock.protobuf;

import static dev.cartograph.mock.protobuf.Field.Type.BOOL;
import static dev.cartograph.mock.protobuf.Field.Type.BYTES_MAP;
import static dev.cartograph.mock.protobuf.Field.Type.INT64;
import static dev.cartograph.mock.protobuf.Field.Type.STRING;
import static dev.cartograph.mock.protobuf.Field.Type.STRINGS;
import static dev.cartograph.mock.protobuf.Field.Type.STRING_MAP;
import static dev.cartograph.mock.protobuf.Field.Type.TIME;

import java.util.Map;
import java.util.Optional;

/**
 * The messages of the kinds {@code kubectl create namespace|configmap|secret|serviceaccount} send,
 * with the field numbers of k8s.io/api {@code core/v1/generated.proto} and k8s.io/apimachinery
 * {@code meta/v1/generated.proto}. Fields kubectl's generators never set (managedFields, namespace
 * conditions) are left out on purpose: an object carrying one is refused rather than stored without it.
 */
final class CoreMessages {
    private static final Message OWNER_REFERENCE = Message.of(
            "OwnerReference",
            Field.of(1, "kind", STRING),
            Field.of(3, "name", STRING),
            Field.of(4, "uid", STRING),
            Field.of(5, "apiVersion", STRING),
            Field.pointer(6, "controller", BOOL),
            Field.pointer(7, "blockOwnerDeletion", BOOL));
    private static final Message OBJECT_META = Message.of(
            "ObjectMeta",
            Field.of(1, "name", STRING),
            Field.of(2, "generateName", STRING),
            Field.of(3, "namespace", STRING),
            Field.of(4, "selfLink", STRING),
            Field.of(5, "uid", STRING),
            Field.of(6, "resourceVersion", STRING),
            Field.of(7, "generation", INT64),
            Field.of(8, "creationTimestamp", TIME),
            Field.of(9, "deletionTimestamp", TIME),
            Field.pointer(10, "deletionGracePeriodSeconds", INT64),
            Field.of(11, "labels", STRING_MAP),
            Field.of(12, "annotations", STRING_MAP),
            Field.messages(13, "ownerReferences", OWNER_REFERENCE),
            Field.of(14, "finalizers", STRINGS));
    private static final Message OBJECT_REFERENCE = Message.of(
            "ObjectReference",
            Field.of(1, "kind", STRING),
            Field.of(2, "namespace", STRING),
            Field.of(3, "name", STRING),
            Field.of(4, "uid", STRING),
            Field.of(5, "apiVersion", STRING),
            Field.of(6, "resourceVersion", STRING),
            Field.of(7, "fieldPath", STRING));
    private static final Message LOCAL_OBJECT_REFERENCE =
            Message.of("LocalObjectReference", Field.of(1, "name", STRING));

    private static final Map<String, Message> KINDS = Map.of(
            "v1/Namespace",
                    Message.of(
                            "Namespace",
                            Field.message(1, "metadata", OBJECT_META),
                            Field.message(2, "spec", Message.of("NamespaceSpec", Field.of(1, "finalizers", STRINGS))),
                            Field.message(3, "status", Message.of("NamespaceStatus", Field.of(1, "phase", STRING)))),
            "v1/ConfigMap",
                    Message.of(
                            "ConfigMap",
                            Field.message(1, "metadata", OBJECT_META),
                            Field.of(2, "data", STRING_MAP),
                            Field.of(3, "binaryData", BYTES_MAP),
                            Field.pointer(4, "immutable", BOOL)),
            "v1/Secret",
                    Message.of(
                            "Secret",
                            Field.message(1, "metadata", OBJECT_META),
                            Field.of(2, "data", BYTES_MAP),
                            Field.of(3, "type", STRING),
                            Field.of(4, "stringData", STRING_MAP),
                            Field.pointer(5, "immutable", BOOL)),
            "v1/ServiceAccount",
                    Message.of(
                            "ServiceAccount",
                            Field.message(1, "metadata", OBJECT_META),
                            Field.messages(2, "secrets", OBJECT_REFERENCE),
                            Field.messages(3, "imagePullSecrets", LOCAL_OBJECT_REFERENCE),
                            Field.pointer(4, "automountServiceAccountToken", BOOL)));

    private CoreMessages() {}

    /** The message of {@code apiVersion}/{@code kind}, empty for a kind this decoder does not read. */
    static Optional<Message> of(String apiVersion, String kind) {
        return Optional.ofNullable(KINDS.get(apiVersion + "/" + kind));
    }
}
