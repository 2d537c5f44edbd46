package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * carto get/describe/definitions against a fabric8 mock API server in CRUD mode holding CRDs, a
 * JobSet, a PyTorchJob and a LeaderWorkerSet with their child objects and pods (owner references
 * and labels as the controllers set them). Expected values are counted by hand from the seed.
 */
@Timeout(120)
@EnableKubernetesMockClient(crud = true)
class LiveClusterTest {
    KubernetesMockServer server;
    KubernetesClient client;

    @TempDir
    Path dir;

    Path kubeconfig;

    @BeforeEach
    void seed() throws Exception {
        MockCluster cluster = new MockCluster(client)
                .crd("jobset.x-k8s.io", "JobSet", "jobsets", List.of(), "v1alpha2")
                .crd("kubeflow.org", "PyTorchJob", "pytorchjobs", List.of(), "v1")
                .crd("leaderworkerset.x-k8s.io", "LeaderWorkerSet", "leaderworkersets", List.of("lws"), "v1");
        kubeconfig = cluster.kubeconfig(dir, "team-a");
        // JobSet "train": workers 1 x parallelism 2, 4 GPUs each; both pods running, one ready
        cluster.create("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: train, namespace: team-a, uid: js-1}
                spec:
                  replicatedJobs:
                    - name: workers
                      template: {spec: {parallelism: 2, template: {spec: {containers: [{name: t, image: x, resources: {limits: {nvidia.com/gpu: 4}}}]}}}}
                status:
                  replicatedJobsStatus: [{name: workers, active: 2, ready: 1, failed: 0}]
                """, "jobsets");
        cluster.create("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: train-workers-0
                  namespace: team-a
                  uid: job-1
                  ownerReferences: [{apiVersion: jobset.x-k8s.io/v1alpha2, kind: JobSet, name: train, uid: "UID(jobsets/train)", controller: true}]
                spec: {parallelism: 2, template: {spec: {containers: [{name: t, image: x}]}}}
                """, "jobs");
        String labels = "jobset.sigs.k8s.io/jobset-name: train, jobset.sigs.k8s.io/replicatedjob-name: workers";
        cluster.create(
                MockCluster.pod(
                                "team-a",
                                "train-workers-0-0",
                                "p1",
                                "Job",
                                "batch/v1",
                                "train-workers-0",
                                "UID(jobs/train-workers-0)",
                                labels,
                                "gpu-node-1",
                                true,
                                4)
                        + MockCluster.pod(
                                "team-a",
                                "train-workers-0-1",
                                "p2",
                                "Job",
                                "batch/v1",
                                "train-workers-0",
                                "UID(jobs/train-workers-0)",
                                labels,
                                "gpu-node-2",
                                false,
                                4),
                "pods");
        // PyTorchJob "ft" in team-b: master 1 + worker 2, 1 GPU each, Created + Running
        cluster.create("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: ft, namespace: team-b, uid: pt-1}
                spec:
                  pytorchReplicaSpecs:
                    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}}}
                    Worker: {replicas: 2, template: {spec: {containers: [{name: pytorch, image: x, resources: {limits: {nvidia.com/gpu: 1}}}]}}}
                status:
                  conditions: [{type: Created, status: "True"}, {type: Running, status: "True"}]
                """, "pytorchjobs");
        String pt = "kubeflow.org/v1";
        cluster.create(
                MockCluster.pod(
                                "team-b",
                                "ft-master-0",
                                "q1",
                                "PyTorchJob",
                                pt,
                                "ft",
                                "UID(pytorchjobs/ft)",
                                "training.kubeflow.org/replica-type: master",
                                "n1",
                                true,
                                1)
                        + MockCluster.pod(
                                "team-b",
                                "ft-worker-0",
                                "q2",
                                "PyTorchJob",
                                pt,
                                "ft",
                                "UID(pytorchjobs/ft)",
                                "training.kubeflow.org/replica-type: worker",
                                "n2",
                                true,
                                1)
                        + MockCluster.pod(
                                "team-b",
                                "ft-worker-1",
                                "q3",
                                "PyTorchJob",
                                pt,
                                "ft",
                                "UID(pytorchjobs/ft)",
                                "training.kubeflow.org/replica-type: worker",
                                "n3",
                                true,
                                1),
                "pods");
        // LeaderWorkerSet "serve" in team-a: 1 group of size 2; leader sts -> leader pod -> worker sts -> worker pod
        cluster.create("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: serve, namespace: team-a, uid: lws-1}
                spec:
                  replicas: 1
                  leaderWorkerTemplate:
                    size: 2
                    workerTemplate: {spec: {containers: [{name: w, image: x, resources: {limits: {nvidia.com/gpu: 8}}}]}}
                status:
                  conditions: [{type: Available, status: "True"}]
                """, "leaderworkersets");
        String lws =
                "leaderworkerset.sigs.k8s.io/name: serve, leaderworkerset.sigs.k8s.io/group-index: '0', leaderworkerset.sigs.k8s.io/worker-index: ";
        cluster.create("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: serve
                  namespace: team-a
                  ownerReferences: [{apiVersion: leaderworkerset.x-k8s.io/v1, kind: LeaderWorkerSet, name: serve, uid: "UID(leaderworkersets/serve)", controller: true}]
                spec: {replicas: 1, template: {spec: {containers: [{name: w, image: x}]}}}
                """, "statefulsets");
        cluster.create(
                MockCluster.pod(
                        "team-a",
                        "serve-0",
                        "lp-1",
                        "StatefulSet",
                        "apps/v1",
                        "serve",
                        "UID(statefulsets/serve)",
                        lws + "'0'",
                        "n4",
                        true,
                        8),
                "pods");
        cluster.create("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata:
                  name: serve-0
                  namespace: team-a
                  ownerReferences: [{apiVersion: v1, kind: Pod, name: serve-0, uid: "UID(pods/serve-0)", controller: true}]
                spec: {replicas: 1, template: {spec: {containers: [{name: w, image: x}]}}}
                """, "statefulsets");
        cluster.create(
                MockCluster.pod(
                        "team-a",
                        "serve-0-1",
                        "wp-1",
                        "StatefulSet",
                        "apps/v1",
                        "serve-0",
                        "UID(statefulsets/serve-0)",
                        lws + "'1'",
                        "n5",
                        true,
                        8),
                "pods");
    }

    @Test
    void getAllTypesAcrossNamespacesShowsPhasesPodsAndGpusOfTopLevelWorkloads() {
        CartoTest.Run run =
                CartoTest.carto("get", "--all-types", "-A", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode items = json(run.out()).path("items");
        assertThat(items).hasSize(3); // the Job and StatefulSets are owned by workloads, so not listed again
        {
            JsonNode r = row(items, "train");
            assertThat(r.path("phase").asText()).isEqualTo("Running");
            assertThat(r.path("pods").path("desired").asInt()).isEqualTo(2);
            assertThat(r.path("pods").path("ready").asInt()).isEqualTo(1);
            assertThat(r.path("gpus").asInt()).isEqualTo(8);
        }
        {
            JsonNode r = row(items, "ft");
            assertThat(r.path("phase").asText()).isEqualTo("Running");
            assertThat(r.path("pods").path("ready").asInt()).isEqualTo(3);
            assertThat(r.path("gpus").asInt()).isEqualTo(3);
            assertThat(r.path("namespace").asText()).isEqualTo("team-b");
        }
        {
            JsonNode r = row(items, "serve");
            assertThat(r.path("phase").asText()).isEqualTo("Running");
            assertThat(r.path("pods").path("desired").asInt()).isEqualTo(2);
            assertThat(r.path("pods").path("ready").asInt()).isEqualTo(2);
            assertThat(r.path("gpus").asInt()).isEqualTo(16);
        }
    }

    @Test
    void getByShortNameUsesTheContextNamespaceAndFiltersByPhase() {
        CartoTest.Run run = CartoTest.carto("get", "lws", "--kubeconfig", kubeconfig.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("NAME   PHASE    PODS  GPUS  AGE").contains("serve  Running  2/2   16");
        CartoTest.Run none =
                CartoTest.carto("get", "jobset", "--phase", "Failed", "--kubeconfig", kubeconfig.toString());
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).contains("No workloads found in namespace team-a");
    }

    @Test
    void describeAttributesPodsToRolesUnhealthyFirst() {
        CartoTest.Run run = CartoTest.carto("describe", "jobset/train", "--kubeconfig", kubeconfig.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("JobSet team-a/train").contains("Totals:  2 pods, 8 GPUs");
        int notReady = run.out().indexOf("train-workers-0-1");
        int ready = run.out().indexOf("train-workers-0-0");
        assertThat(notReady).isPositive().isLessThan(ready);
        assertThat(run.out()).contains("replicatedjob/workers  train-workers-0-1  gpu-node-2  Pending  no");

        CartoTest.Run lws = CartoTest.carto(
                "describe", "leaderworkerset", "serve", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        JsonNode view = json(lws.out());
        JsonNode group = view.at("/components/0/children/0");
        assertThat(group.at("/children/0/instances/0/pods/0/name").asText()).isEqualTo("serve-0");
        assertThat(group.at("/children/1/instances/0/pods/0/name").asText()).isEqualTo("serve-0-1");
        assertThat(group.at("/children/1/instances/0/pods/0/node").asText()).isEqualTo("n5");
    }

    @Test
    void unknownNamesAndTypesHaveTheirOwnExitCodes() {
        CartoTest.Run missing =
                CartoTest.carto("describe", "jobset/nope", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        assertThat(missing.exit()).isEqualTo(4);
        assertThat(json(missing.out()).path("error").asText()).isEqualTo("not_found");
        CartoTest.Run unknown = CartoTest.carto("get", "widgets", "--kubeconfig", kubeconfig.toString());
        assertThat(unknown.exit()).isEqualTo(3);
    }

    @Test
    void aKartaInTheClusterOverridesTheCatalogAndNoCrdIsOneWarning() throws Exception {
        CartoTest.Run before = CartoTest.carto("definitions", "--kubeconfig", kubeconfig.toString());
        assertThat(before.err()).contains("no kartas.run.ai CRD in this cluster; using the built-in catalog");
        MockCluster cluster =
                new MockCluster(client).crd("Cluster", "run.ai", "Karta", "kartas", List.of(), "v1alpha1");
        cluster.create("""
                apiVersion: run.ai/v1alpha1
                kind: Karta
                metadata: {name: my-jobset}
                spec:
                  structureDefinition:
                    rootComponent:
                      name: jobset
                      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
                      statusDefinition:
                        statusMappings:
                          degraded: [{byExpression: {expression: "true", expectedResult: "true"}}]
                    childComponents:
                      - name: all
                        ownerRef: jobset
                        specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[0].template.spec.template'}
                        scaleDefinition: {replicasPath: "5"}
                ---
                apiVersion: run.ai/v1alpha1
                kind: Karta
                metadata: {name: broken}
                spec: {structureDefinition: {rootComponent: {name: x}}}
                """, "kartas");
        CartoTest.Run defs = CartoTest.carto("definitions", "--kubeconfig", kubeconfig.toString());
        assertThat(defs.out()).as(defs.err()).contains("my-jobset").contains("cluster");
        assertThat(defs.err())
                .contains("broken: spec.structureDefinition.rootComponent.kind: is required")
                .contains("(cluster definition skipped)");
        CartoTest.Run get =
                CartoTest.carto("get", "jobsets/train", "--kubeconfig", kubeconfig.toString(), "-o", "json");
        JsonNode train = json(get.out()).path("items").get(0);
        assertThat(train.path("phase").asText()).isEqualTo("Degraded");
        assertThat(train.path("origin").asText()).isEqualTo("cluster");
        assertThat(train.path("pods").path("desired").asInt()).isEqualTo(5);
    }

    private static JsonNode json(String text) {
        try {
            return Documents.json().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static JsonNode row(JsonNode items, String name) {
        for (JsonNode i : items) {
            if (name.equals(i.path("name").asText())) {
                return i;
            }
        }
        throw new AssertionError("no row " + name + " in " + items);
    }
}
