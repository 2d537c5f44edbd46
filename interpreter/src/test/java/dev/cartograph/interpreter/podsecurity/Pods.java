package dev.cartograph.interpreter.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Definitions;
import dev.cartograph.interpreter.Documents;
import dev.cartograph.interpreter.Interpreter;
import dev.cartograph.interpreter.Resolution;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Small hand-written pods and workloads, resolved with hand-written definitions, for the pod security tests. */
final class Pods {
    /** A bare Pod is its own template ({@code podTemplateSpecPath: .}), as in the catalog. */
    static final String POD_DEFINITION = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: pod}
            spec:
              structureDefinition:
                rootComponent:
                  name: pod
                  kind: {group: "", version: v1, kind: Pod}
                  statusDefinition: {phaseDefinition: {path: .status.phase}, statusMappings: {running: [{byPhase: Running}]}}
                  specDefinition: {podTemplateSpecPath: .}
                  scaleDefinition: {replicasPath: "1"}
            """;

    /** The catalog's PyTorchJob, cut to its pod templates. */
    static final String PYTORCHJOB_DEFINITION = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: pytorchjob}
            spec:
              structureDefinition:
                rootComponent:
                  name: pytorchjob
                  kind: {group: kubeflow.org, version: v1, kind: PyTorchJob}
                  statusDefinition: {phaseDefinition: {path: .status.phase}, statusMappings: {running: [{byPhase: Running}]}}
                childComponents:
                  - name: master
                    ownerRef: pytorchjob
                    specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Master.template}
                    scaleDefinition: {replicasPath: .spec.pytorchReplicaSpecs.Master.replicas}
                  - name: worker
                    ownerRef: pytorchjob
                    specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Worker.template}
                    scaleDefinition: {replicasPath: .spec.pytorchReplicaSpecs.Worker.replicas}
            """;

    /** A kind whose pod specs and metadata sit apart ({@code podSpecPath} and {@code metadataPath}). */
    static final String CLIQUES_DEFINITION = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: cliques}
            spec:
              structureDefinition:
                rootComponent:
                  name: set
                  kind: {group: example.com, version: v1, kind: CliqueSet}
                  statusDefinition: {phaseDefinition: {path: .status.phase}, statusMappings: {running: [{byPhase: Running}]}}
                childComponents:
                  - name: clique
                    ownerRef: set
                    instanceIdPath: '.spec.cliques[].name'
                    specDefinition: {podSpecPath: '.spec.cliques[].podSpec', metadataPath: '.spec.cliques[]'}
                    scaleDefinition: {replicasPath: '.spec.cliques[].replicas'}
                    podSelector: {componentInstanceSelector: {idPath: '.metadata.labels["clique"]'}}
            """;

    static final Interpreter INTERPRETER = Interpreter.of(definitions());

    private static Definitions definitions() {
        Definitions.Loaded loaded = Definitions.read(
                stream(POD_DEFINITION + "---\n" + PYTORCHJOB_DEFINITION + "---\n" + CLIQUES_DEFINITION),
                "pod-security-test.yaml");
        if (loaded.hasErrors()) {
            throw new IllegalStateException(loaded.problems().toString());
        }
        return loaded.definitions();
    }

    private Pods() {}

    static JsonNode yaml(String text) {
        try {
            return Documents.read(stream(text)).get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A Pod {@code ml/p} whose spec is {@code spec} (flow-style YAML). */
    static JsonNode pod(String spec) {
        return yaml("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ml}\nspec: " + spec + "\n");
    }

    static Resolution.Resolved resolve(JsonNode object) {
        Resolution r = INTERPRETER.resolve(object);
        if (!(r instanceof Resolution.Resolved resolved)) {
            throw new AssertionError(r.problems());
        }
        return resolved;
    }

    static List<Violation> check(JsonNode object, Level level) {
        return PodSecurity.check(resolve(object).view(), level);
    }

    /** {@code field check} per violation, in order: what the tests compare against hand-written lists. */
    static List<String> fields(JsonNode object, Level level) {
        return check(object, level).stream()
                .map(v -> v.field() + " " + v.check())
                .toList();
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
