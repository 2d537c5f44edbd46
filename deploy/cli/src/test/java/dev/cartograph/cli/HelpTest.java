package dev.cartograph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Like kubectl, every command answers {@code --help} and {@code -h} with its usage, even without its required options. */
@Timeout(30)
class HelpTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "get",
                "validate",
                "describe",
                "definitions",
                "plan",
                "fleet",
                "usage",
                "bench",
                "completion",
                "install"
            })
    void everySubcommandPrintsItsUsageForHelpAndH(String command) {
        for (String flag : new String[] {"--help", "-h"}) {
            CartoTest.Run run = CartoTest.carto(command, flag);
            assertThat(run.exit()).as(command + " " + flag + ": " + run.err()).isZero();
            assertThat(run.out())
                    .as(command + " " + flag)
                    .startsWith("Usage: carto " + command)
                    .contains("-h, --help");
            assertThat(run.err()).isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void installCrdsPrintsItsUsageAndInstallAloneIsAUsageError() {
        CartoTest.Run help = CartoTest.carto("install", "crds", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).startsWith("Usage: carto install crds").contains("--dry-run", "--all", "--kubeconfig");

        CartoTest.Run bare = CartoTest.carto("install");
        assertThat(bare.exit()).isEqualTo(2);
        assertThat(bare.err()).contains("a subcommand is required: crds");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void theRootCommandListsItsSubcommands(String flag) {
        CartoTest.Run run = CartoTest.carto(flag);
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .startsWith("Usage: carto")
                .contains("get", "describe", "definitions", "plan", "fleet", "install");
    }
}
