package dev.cartograph.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code carto completion bash|zsh}: a completion script; {@code source <(carto completion bash)}. */
@Command(name = "completion", description = "Print a shell completion script: source <(carto completion bash).")
final class CompletionCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh")
    String shell;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            spec.commandLine().getErr().println("error: shell must be bash or zsh");
            return Carto.UNREADABLE;
        }
        CommandLine root = spec.commandLine().getParent();
        String script = AutoComplete.bash("carto", root);
        if (shell.equals("zsh")) {
            script = "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + script;
        }
        spec.commandLine().getOut().print(script + "\ncomplete -F _complete_carto kubectl-carto 2>/dev/null || true\n");
        spec.commandLine().getOut().flush();
        return Carto.OK;
    }
}
