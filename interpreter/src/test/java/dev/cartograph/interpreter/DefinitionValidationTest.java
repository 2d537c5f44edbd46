package dev.cartograph.interpreter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cartograph.interpreter.problem.Problem;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class DefinitionValidationTest {

    static Definitions.Loaded read(String yaml) {
        return Definitions.read(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yaml");
    }

    private static final String BROKEN = """
            apiVersion: run.ai/v1alpha1
            kind: Karta
            metadata: {name: broken}
            spec:
              structureDefinition:
                rootComponent:
                  name: root
                  kind: {group: example.com, version: v1, kind: Thing}
                  ownerRef: nobody
                childComponents:
                  - name: a
                    ownerRef: b
                    specDefinition:
                      podTemplateSpecPath: .spec.a
                      podSpecPath: .spec.a.spec
                  - name: b
                    ownerRef: a
                  - name: c
                    ownerRef: missing
                    instanceIdPath: .spec.c[].name
                    scaleDefinition: {replicasPath: ".spec.c[] | .replicas +"}
                  - name: c
                    ownerRef: root
              optimizationInstructions:
                gangScheduling:
                  podGroups:
                    - name: g
                      members: [{componentName: ghost}]
            """;

    /** A definition of example.com/v1 Thing whose root component has {@code rootBody} (indented 6). */
    static String thing(String name, String rootBody) {
        return """
                apiVersion: run.ai/v1alpha1
                kind: Karta
                metadata: {name: %s}
                spec:
                  structureDefinition:
                    rootComponent:
                      name: thing
                      kind: {group: example.com, version: v1, kind: Thing}
                """.formatted(name) + rootBody.indent(6);
    }

    @Test
    void reportsEveryProblemWithItsFieldPath() {
        Definitions.Loaded loaded = read(BROKEN);
        assertThat(loaded.definitions().size()).isZero();
        List<String> errors = loaded.problems().stream()
                .filter(Problem::isError)
                .map(Problem::toString)
                .toList();
        assertThat(errors)
                .anyMatch(e ->
                        e.startsWith("broken: spec.structureDefinition.rootComponent.statusDefinition: is required"));
        assertThat(errors).anyMatch(e -> e.contains("rootComponent.ownerRef: the root component cannot have an owner"));
        assertThat(errors).anyMatch(e -> e.contains("childComponents[0].specDefinition: must have exactly one of"));
        assertThat(errors)
                .anyMatch(e ->
                        e.contains("childComponents[2].scaleDefinition.replicasPath: jq expression does not compile"));
        assertThat(errors)
                .anyMatch(
                        e -> e.contains(
                                "childComponents[2].podSelector.componentInstanceSelector: is required when instanceIdPath is set"));
        assertThat(errors).anyMatch(e -> e.contains("component name 'c' is used more than once"));
        assertThat(errors).anyMatch(e -> e.contains("names component 'missing', which does not exist"));
        assertThat(errors).anyMatch(e -> e.contains("is its own ancestor"));
        assertThat(errors).anyMatch(e -> e.contains("podGroups[0].members[0].componentName: names component 'ghost'"));
        assertThat(errors).hasSizeGreaterThanOrEqualTo(9);
    }

    @Test
    void legacyStatusKeysLoadAsInitializingWithAWarning() {
        Definitions.Loaded loaded = read(thing("old", """
                statusDefinition:
                  phaseDefinition: {path: .status.phase}
                  statusMappings:
                    pending: [{byPhase: Waiting}]
                    progressing: [{byPhase: Starting}]
                """));
        assertThat(loaded.hasErrors()).isFalse();
        assertThat(loaded.problems())
                .extracting(Problem::toString)
                .contains(
                        "warning: old: spec.structureDefinition.rootComponent.statusDefinition.statusMappings.pending: is an older name; read as 'initializing'");
        var def = loaded.definitions().named("old").orElseThrow();
        assertThat(def.status().mappings().get(dev.cartograph.interpreter.view.Phase.INITIALIZING))
                .hasSize(2);
    }

    @Test
    void notAKartaAndUnreadableTextAreReportedNotThrown() {
        assertThat(read("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n").problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("not a Workload Map definition"));
        assertThat(read("{ this is : not: yaml").problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("cannot be read as YAML or JSON"));
    }

    @Test
    void badSuspendValueAndUnknownStatusAreErrors() {
        Definitions.Loaded loaded = read(thing("s", """
                statusDefinition:
                  statusMappings:
                    sleeping: [{byExpression: {expression: ".x", expectedResult: "1"}}]
                suspendDefinition:
                  suspendActions: [{path: .spec.suspend, value: "yes please"}]
                  resumeActions: [{path: .spec.suspend, value: "false"}]
                """));
        assertThat(loaded.problems())
                .extracting(Problem::toString)
                .anyMatch(p -> p.contains("statusMappings.sleeping: is not a status"))
                .anyMatch(p -> p.contains("suspendActions[0].value: must be JSON text"));
    }
}
