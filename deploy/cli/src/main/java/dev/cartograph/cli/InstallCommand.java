package dev.cartograph.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code carto install}: what a hub needs before a broker federates to it. Only {@code crds} today. */
@Command(
        name = "install",
        description = "Install what a hub needs (see: carto install crds --help).",
        subcommands = {InstallCrdsCommand.class})
final class InstallCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: crds");
    }
}
