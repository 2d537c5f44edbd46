package dev.cartograph.broker.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The dashboard's page and assets: served as they are, with a policy that allows nothing from elsewhere. */
class DashboardControllerTest {
    final DashboardController dashboard = new DashboardController();

    @Test
    void thePageAndItsAssetsAreServedWithAStrictPolicyAndNothingElseIs() {
        HttpResponse<byte[]> page = dashboard.page();
        String html = new String(page.body(), StandardCharsets.UTF_8);
        assertThat(html)
                .contains("<script type=\"module\" src=\"/ui/app.js\"></script>")
                .doesNotContain("<script>");
        assertThat(page.getHeaders().get("Content-Security-Policy"))
                .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'")
                .doesNotContain("unsafe");
        assertThat(page.getHeaders().get("Referrer-Policy")).isEqualTo("no-referrer");
        assertThat(dashboard.asset("app.js").getHeaders().get("Content-Type")).startsWith("text/javascript");
        assertThat(new String(dashboard.asset("app.js").body(), StandardCharsets.UTF_8))
                .contains("history.replaceState")
                .doesNotContain("innerHTML");
        assertThat(dashboard.asset("app.css").getStatus().getCode()).isEqualTo(200);
        assertThat(dashboard.asset("index.html").getStatus().getCode()).isEqualTo(404);
        assertThat(dashboard.asset("../application.yml").getStatus().getCode()).isEqualTo(404);
    }

    @Test
    void onlyThePageAndItsTwoAssetsNeedNoToken() {
        assertThat(AccessFilter.open("/")).isTrue();
        assertThat(AccessFilter.open("/ui/app.js")).isTrue();
        assertThat(AccessFilter.open("/ui/app.css")).isTrue();
        assertThat(AccessFilter.open("/ui/other.js")).isFalse();
        assertThat(AccessFilter.open("/api/v1/fleet/summary")).isFalse();
        assertThat(AccessFilter.open("/api/v1/clusters/west/nodes")).isFalse();
        assertThat(AccessFilter.open("//")).isFalse();
    }
}
