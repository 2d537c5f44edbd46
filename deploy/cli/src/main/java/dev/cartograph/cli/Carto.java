package dev.cartograph.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code carto}: Cartograph's command line. Exit codes: 0 success, 1 invalid input (definitions
 * with errors, objects with problems), 2 unreadable input or bad usage, 3 no definition for a kind,
 * 4 object not found, 5 the cluster (or broker) could not be read, or refused a write ({@code carto install crds}),
 * 6 the broker refused the caller: no
 * token, a token it does not accept (401), or not allowed (403).
 *
 * <p>{@code -h}/{@code --help} and {@code -V}/{@code --version} are picocli's standard help options;
 * {@code scope = INHERIT} gives them to every subcommand, as kubectl answers {@code --help} everywhere.
 */
@Command(
        name = "carto",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT,
        version = "carto 0.1.0",
        description = "Cartograph: AI workloads as workloads (roles, replicas, GPUs, phase).",
        subcommands = {
            GetCommand.class,
            ValidateCommand.class,
            DescribeCommand.class,
            DefinitionsCommand.class,
            PlanCommand.class,
            FleetCommand.class,
            UsageCommand.class,
            BenchCommand.class,
            InstallCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Carto implements Runnable {
    static final int OK = 0;
    static final int INVALID = 1;
    static final int UNREADABLE = 2;
    static final int NO_DEFINITION = 3;
    static final int NOT_FOUND = 4;
    static final int CLUSTER_ERROR = 5;
    static final int ACCESS_DENIED = 6;

    private final Map<String, String> env;

    /** {@code carto} reading the process's environment ({@code CARTOGRAPH_BROKER_URL}, {@code CARTOGRAPH_TOKEN}). */
    public Carto() {
        this(System.getenv());
    }

    /** {@code carto} reading {@code env} instead of the process's environment. */
    Carto(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    Map<String, String> env() {
        return env;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String... args) {
        return new CommandLine(new Carto()).execute(args);
    }
}
