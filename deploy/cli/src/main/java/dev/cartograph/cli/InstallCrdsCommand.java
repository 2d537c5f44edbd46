package dev.cartograph.cli;

import dev.cartograph.catalog.Catalog;
import dev.cartograph.cli.kube.ConnectionOptions;
import dev.cartograph.cli.kube.CrdInstaller;
import dev.cartograph.cli.kube.Kube;
import dev.cartograph.interpreter.Definitions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code carto install crds}: makes a hub that runs none of the operators accept every catalog kind. Installs
 * Cartograph's own CRDs (Cluster, Queue, Karta) and one permissive CRD (open schema, status subresource, Cluster and
 * Phase columns) for each catalog kind the hub does not serve; leaves alone a kind another CRD or API serves.
 * Idempotent: a second run changes nothing and says unchanged.
 */
@Command(
        name = "crds",
        description = {
            "Install the CRDs a hub needs to accept every catalog kind: Cartograph's own (clusters.cartograph.dev,"
                    + " queues.cartograph.dev, kartas.run.ai) and, for each catalog kind the hub does not serve yet, one with an open schema,"
                    + " the status subresource and Cluster/Phase columns.",
            "A kind the hub serves through another CRD (an operator's) is skipped, never overwritten; a CRD"
                    + " labelled app.kubernetes.io/managed-by=cartograph is updated when it differs."
                    + " Prints one line per CRD: created, updated, unchanged or skipped (served by ...), then waits"
                    + " until the hub serves them (--wait).",
            "A CRD the hub refuses is named with the hub's message and the rest go on (a 401/403 stops the writes);"
                    + " any refusal, or a CRD not established in time, exits 5."
        })
final class InstallCrdsCommand implements Callable<Integer> {
    private static final Duration POLL = Duration.ofMillis(250);

    @Mixin
    ConnectionOptions cluster;

    @Option(
            names = "--dry-run",
            description = "read the hub, send nothing: print the CRDs that would be created or updated as one YAML"
                    + " stream on stdout, and each CRD's line on stderr")
    boolean dryRun;

    @Option(
            names = "--all",
            description = "with --dry-run: print every CRD a bare hub would get, without contacting a cluster")
    boolean all;

    @Option(
            names = "--wait",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "wait up to this long until the hub serves every installed CRD's kind (its Established"
                    + " condition), so objects of those kinds can be created right after; 0: do not wait"
                    + " (default: ${DEFAULT-VALUE})")
    int waitSeconds;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Errors errors = new Errors(Output.TABLE, out, err);
        if (all && !dryRun) {
            return errors.fail(
                    Carto.UNREADABLE, "usage", "--all only goes with --dry-run (it prints, it never installs)");
        }
        Definitions catalog = Catalog.load().definitions();
        if (all) {
            out.print(CrdInstaller.allYaml(catalog));
            out.flush();
            return Carto.OK;
        }
        try (CrdInstaller installer = CrdInstaller.open(cluster)) {
            List<CrdInstaller.Step> steps = installer.plan(catalog);
            if (dryRun) {
                out.print(CrdInstaller.yaml(steps));
                out.flush();
                steps.forEach(s -> err.println(s.line() + (s.writes() ? " (dry run)" : "")));
                err.flush();
                return Carto.OK;
            }
            if (waitSeconds < 0) {
                return errors.fail(Carto.UNREADABLE, "usage", "--wait takes seconds, 0 or more: " + waitSeconds);
            }
            CrdInstaller.Applied applied = installer.apply(steps, line -> {
                out.println(line);
                out.flush();
            });
            List<String> problems = new ArrayList<>(applied.refusals());
            if (waitSeconds > 0) {
                problems.addAll(installer.awaitEstablished(applied.installed(), Duration.ofSeconds(waitSeconds), POLL));
            }
            problems.forEach(p -> errors.fail(Carto.CLUSTER_ERROR, "cluster", p));
            return problems.isEmpty() ? Carto.OK : Carto.CLUSTER_ERROR;
        } catch (Kube.ClusterError e) {
            return errors.fail(Carto.CLUSTER_ERROR, "cluster", e.getMessage());
        }
    }
}
