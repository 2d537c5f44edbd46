package dev.cartograph.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceRule;
import java.util.Arrays;

/**
 * The design rules of docs/style.md, checked on the class files of every module's main code (tests are free
 * to use what they need). A rule that breaks fails {@code mvn verify}. Violations that predate a rule are
 * listed, each with its reason, in {@link KnownViolations}; that list only shrinks.
 */
@AnalyzeClasses(packages = "dev.cartograph", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    private static final String[] FABRIC8 = {"io.fabric8.."};
    private static final String[] KAFKA = {"org.apache.kafka..", "kafka.."};
    private static final String[] MICRONAUT = {"io.micronaut.."};

    /** Reads, then a pure decision, then acts: interpretation and placement never touch an adapter library. */
    @ArchTest
    static final ArchRule pureCodeUsesNoAdapterLibrary = noClasses()
            .that()
            .resideInAnyPackage(
                    "dev.cartograph.interpreter..",
                    "dev.cartograph.catalog..",
                    "dev.cartograph.protocol..",
                    "dev.cartograph.fleet..",
                    "dev.cartograph.placement..",
                    "dev.cartograph.fairshare..",
                    "dev.cartograph.usage..",
                    "dev.cartograph.agent.apply..",
                    "dev.cartograph.agent.capacity..",
                    "dev.cartograph.agent.report..",
                    "dev.cartograph.broker.coordinate..",
                    "dev.cartograph.broker.usage..")
            .and()
            .resideOutsideOfPackage("..kafka..") // a module's own Kafka adapter (protocol.kafka: the producer contract)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(concat(FABRIC8, KAFKA, MICRONAUT))
            .because("interpretation and placement are pure functions over immutable inputs");

    /** Kafka stays in the {@code kafka} packages (the agent's and broker's adapters, deploy/kafka's broker). */
    @ArchTest
    static final ArchRule onlyKafkaPackagesUseKafka = noClasses()
            .that()
            .resideOutsideOfPackage("..kafka..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(KAFKA)
            .because("each third-party library stays in one adapter package");

    /**
     * fabric8 stays in adapter packages: every {@code kube} package, the broker's {@code hub} (its adapter to
     * the hub cluster), the Micronaut factories in {@code config} that build the clients, and the mock cluster,
     * which is a fabric8 mock API server through and through.
     */
    @ArchTest
    static final ArchRule onlyAdapterPackagesUseFabric8 = noClasses()
            .that()
            .resideOutsideOfPackages("..kube..", "dev.cartograph.broker.hub..", "..config..", "dev.cartograph.mock..")
            .and(not(KnownViolations.FABRIC8_OUTSIDE_ADAPTERS))
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(FABRIC8)
            .because("each third-party library stays in one adapter package");

    /**
     * Micronaut is wiring: {@code config} (factories, bound properties, health), {@code api} (REST), the
     * services' {@code *Application} entry points, and deploy/local's launcher, which starts the services'
     * application contexts in one JVM.
     */
    @ArchTest
    static final ArchRule onlyWiringUsesMicronaut = noClasses()
            .that()
            .resideOutsideOfPackages("..config..", "..api..", "dev.cartograph.local..")
            .and()
            .haveSimpleNameNotEndingWith("Application")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(MICRONAUT)
            .because("Micronaut belongs in config/http and factories");

    /**
     * Micrometer stays in the {@code metrics} packages (the meters), {@code config} (binding them to Micronaut's
     * registry) and deploy/local (a registry per local agent); the coordinator and the agent only see observer
     * interfaces of their own.
     */
    @ArchTest
    static final ArchRule onlyMetricsPackagesUseMicrometer = noClasses()
            .that()
            .resideOutsideOfPackages("..metrics..", "..config..", "dev.cartograph.local..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.micrometer..", "io.prometheus..")
            .because("each third-party library stays in one adapter package");

    /** jackson-jq stays behind the interpreter's {@code jq} package. */
    @ArchTest
    static final ArchRule onlyTheJqPackageUsesJacksonJq = noClasses()
            .that()
            .resideOutsideOfPackage("dev.cartograph.interpreter.jq..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("net.thisptr..")
            .because("each third-party library stays in one adapter package");

    /** No two packages depend on each other, directly or around a longer loop. */
    @ArchTest
    static final ArchRule packagesAreFreeOfCycles =
            withKnownCycles(slices().matching("dev.cartograph.(**)").should().beFreeOfCycles());

    /**
     * The folder tree is the dependency graph: each module's packages use only the modules below it (the
     * poms say the same; this rule keeps a new pom dependency from quietly turning a layer upside down). The
     * interpreter uses nothing of ours; no package under interpreter/ uses the broker's or the agent's.
     */
    @ArchTest
    static final ArchRule modulesDependOnlyDownward = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Interpreter")
            .definedBy("dev.cartograph.interpreter..")
            .layer("Kube")
            .definedBy("dev.cartograph.kube..")
            .layer("Catalog")
            .definedBy("dev.cartograph.catalog..")
            .layer("Protocol")
            .definedBy("dev.cartograph.protocol..")
            .layer("BrokerCore")
            .definedBy(
                    "dev.cartograph.fleet..",
                    "dev.cartograph.placement..",
                    "dev.cartograph.fairshare..",
                    "dev.cartograph.usage..")
            .layer("Agent")
            .definedBy("dev.cartograph.agent..")
            .layer("Broker")
            .definedBy("dev.cartograph.broker..")
            .layer("Cli")
            .definedBy("dev.cartograph.cli..")
            .layer("LocalKafka")
            .definedBy("dev.cartograph.kafka..")
            .layer("MockCluster")
            .definedBy("dev.cartograph.mock..")
            .layer("Simulator")
            .definedBy("dev.cartograph.simulator..")
            .layer("LocalFleet")
            .definedBy("dev.cartograph.local..")
            .whereLayer("Interpreter")
            .mayNotAccessAnyLayer()
            .whereLayer("Kube")
            .mayOnlyAccessLayers("Interpreter")
            .whereLayer("Catalog")
            .mayOnlyAccessLayers("Interpreter")
            .whereLayer("Protocol")
            .mayOnlyAccessLayers("Interpreter")
            .whereLayer("BrokerCore")
            .mayOnlyAccessLayers("Interpreter", "Protocol")
            .whereLayer("Agent")
            .mayOnlyAccessLayers("Interpreter", "Kube", "Catalog", "Protocol")
            .whereLayer("Broker")
            .mayOnlyAccessLayers("Interpreter", "Kube", "Catalog", "Protocol", "BrokerCore")
            .whereLayer("Cli")
            .mayOnlyAccessLayers("Interpreter", "Kube", "Catalog", "Protocol", "BrokerCore")
            .whereLayer("LocalKafka")
            .mayNotAccessAnyLayer()
            .whereLayer("MockCluster")
            .mayOnlyAccessLayers("Interpreter", "Kube", "Catalog")
            .whereLayer("Simulator")
            .mayOnlyAccessLayers("Interpreter", "Catalog");

    /** An entry of {@link KnownViolations} that no longer violates anything is deleted: the lists only shrink. */
    @ArchTest
    static void knownViolationsAreAllStillThere(JavaClasses classes) {
        assertThat(KnownViolations.fixed(classes, FABRIC8))
                .as("entries of KnownViolations that are fixed now: delete them")
                .isEmpty();
    }

    private static SliceRule withKnownCycles(SliceRule rule) {
        SliceRule result = rule;
        for (KnownViolations.Edge edge : KnownViolations.CYCLE_EDGES) {
            result = result.ignoreDependency(edge.origin(), edge.target());
        }
        return result;
    }

    private static String[] concat(String[]... groups) {
        return Arrays.stream(groups).flatMap(Arrays::stream).toArray(String[]::new);
    }
}
