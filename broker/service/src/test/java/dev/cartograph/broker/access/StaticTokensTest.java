package dev.cartograph.broker.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 5, unit = TimeUnit.SECONDS)
class StaticTokensTest {
    static final String FILE = """
            # the Kubernetes static token file shape
            t0k3n-admin,admin,1000,"system:masters,cartograph-admins"

            t0k3n-alice,alice
            t0k3n-bob,bob,1002
            """;

    @Test
    void knowsEachTokensUserUidAndGroups() {
        StaticTokens tokens = StaticTokens.parse(FILE, "tokens.csv");
        assertThat(tokens.size()).isEqualTo(3);
        assertThat(tokens.authenticate(new BearerToken("t0k3n-admin")))
                .isEqualTo(new Authentication.Authenticated(
                        new Caller("admin", "1000", List.of("system:masters", "cartograph-admins"))));
        assertThat(tokens.authenticate(new BearerToken("t0k3n-alice")))
                .isEqualTo(new Authentication.Authenticated(new Caller("alice", "", List.of())));
        assertThat(tokens.authenticate(new BearerToken("t0k3n-bob")))
                .isEqualTo(new Authentication.Authenticated(new Caller("bob", "1002", List.of())));
    }

    @Test
    void rejectsATokenNotInTheFileOrAPrefixOfOne() {
        StaticTokens tokens = StaticTokens.parse(FILE, "tokens.csv");
        assertThat(tokens.authenticate(new BearerToken("t0k3n-mallory")))
                .isEqualTo(new Authentication.Rejected("the token is not in the broker's token file"));
        assertThat(tokens.authenticate(new BearerToken("t0k3n-alic"))).isInstanceOf(Authentication.Rejected.class);
    }

    @Test
    void aMalformedLineIsNamedByNumberWithoutItsToken() {
        assertThatThrownBy(() -> StaticTokens.parse("ok,alice\nsecret-only\n", "tokens.csv"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tokens.csv line 2: expected token,user[,uid[,\"group1,group2\"]] (1 fields)")
                .hasMessageNotContaining("secret-only");
    }

    @Test
    void refusesARepeatedTokenAndAFileWithoutTokens() {
        assertThatThrownBy(() -> StaticTokens.parse("same,alice\nsame,bob\n", "tokens.csv"))
                .hasMessage("tokens.csv line 2: this token is already on an earlier line");
        assertThatThrownBy(() -> StaticTokens.parse("# nothing\n\n", "tokens.csv"))
                .hasMessage("tokens.csv has no tokens");
    }
}
