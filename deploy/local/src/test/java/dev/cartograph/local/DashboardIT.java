package dev.cartograph.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cartograph.interpreter.Documents;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real browser (Debian's headless Chromium, driven by Selenium) against the local fleet, default
 * profile: the link the fleet prints signs in, every cluster shows the GPU numbers {@code GET /api/v1/fleet} gives,
 * a cluster's node map has a cell per node, a gang submitted on the hub appears within seconds, the what-if answers as
 * {@code POST /api/v1/plan} does, and the page keeps its layout at 1280×800 and at a phone's width. Skipped, saying so,
 * where {@code /usr/bin/chromium} or {@code /usr/bin/chromedriver} is missing ({@code .ci/run} installs them).
 * Screenshots of each view go to {@code target/dashboard/} ({@code -Ddashboard.screenshots=DIR} elsewhere, e.g.
 * {@code docs/images} to refresh the README's).
 */
@Timeout(300)
class DashboardIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path dir;

    @BeforeAll
    static void browser() {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "no Chromium here (apt-get install chromium chromium-driver): the dashboard's browser test is skipped");
    }

    static WebDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toString());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,800");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    static JsonNode api(LocalFleet fleet, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(fleet.brokerUrl() + path))
                .header("Authorization", "Bearer " + fleet.token().token());
        if (body != null) {
            b.header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> r = HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return Documents.json().readTree(r.body());
    }

    static void screenshot(WebDriver browser, String name) throws IOException {
        Path out = Path.of(System.getProperty("dashboard.screenshots", "target/dashboard"));
        Files.createDirectories(out);
        Files.write(out.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
    }

    /** Waits up to 20 s; an element the page redrew meanwhile (it polls every 2 s) is looked up again. */
    static org.openqa.selenium.support.ui.FluentWait<WebDriver> waiting(WebDriver browser) {
        return new WebDriverWait(browser, Duration.ofSeconds(20))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class);
    }

    /** The Free column of the fleet table, by cluster and model (read in one script: the table is redrawn every 2 s). */
    @SuppressWarnings("unchecked")
    static Map<String, String> freeShown(WebDriver browser) {
        Object free = ((JavascriptExecutor) browser)
                .executeScript(
                        "return Object.fromEntries([...document.querySelectorAll('#fleet-table tbody tr[data-key]')]"
                                + ".map(tr => [tr.dataset.key, tr.children[7].textContent]));");
        return new HashMap<>((Map<String, String>) free);
    }

    /** The free GPUs of every cell of the node map (read in one script: the map is redrawn every 2 s). */
    @SuppressWarnings("unchecked")
    static List<String> nodeMapFree(WebDriver browser) {
        Object free = ((JavascriptExecutor) browser)
                .executeScript(
                        "return [...document.querySelectorAll('#nodemap .cell[data-node]')].map(c => c.dataset.free);");
        return List.copyOf((List<String>) free);
    }

    static boolean noHorizontalScroll(WebDriver browser) {
        Object fits = ((JavascriptExecutor) browser)
                .executeScript("return document.documentElement.scrollWidth <= document.documentElement.clientWidth;");
        return Boolean.TRUE.equals(fits);
    }

    @Test
    void theLinkSignsInAndEveryViewShowsWhatTheApiSays() throws Exception {
        String manifest = Files.readString(Path.of("examples/pytorchjob.yaml"));
        try (LocalFleet fleet = FairShareIT.started(dir)) {
            WebDriver browser = chromium();
            try {
                browser.get(fleet.dashboardUrl());
                // signed in by the link, and the token is gone from the address bar
                waiting(browser)
                        .until(b -> b.findElements(By.cssSelector("#fleet-table tbody tr[data-key]"))
                                        .size()
                                >= 3);
                assertThat(browser.getCurrentUrl()).doesNotContain("token");

                // every cluster and model with the free GPUs the API gives; by hand from the default profile: H100
                // 8 + 8 + 6 + 0 = 22, A100 8 × 4 + 4 + 4 + 2 + 0 = 42, L40S 4 + 3 = 7
                Map<String, String> expected = new HashMap<>();
                for (JsonNode c : api(fleet, "/api/v1/fleet", null).path("clusters")) {
                    for (JsonNode m : c.path("gpuModels")) {
                        expected.put(
                                c.path("name").asText() + "/" + m.path("model").asText(),
                                m.path("free").asText());
                    }
                }
                assertThat(expected)
                        .containsEntry("gpu-east/NVIDIA-H100-80GB-HBM3", "22")
                        .containsEntry("gpu-west/NVIDIA-A100-SXM4-80GB", "42")
                        .containsEntry("gpu-edge/NVIDIA-L40S", "7");
                waiting(browser).until(b -> freeShown(b).equals(expected));
                assertThat(noHorizontalScroll(browser))
                        .as("no sideways scrolling at 1280×800")
                        .isTrue();

                // the node map of gpu-west: a cell per node, free 8, 8, 8, 8, 4, 4, 2, 0 by hand from the profile
                waiting(browser)
                        .until(
                                b -> { // found and clicked in one try: the table is redrawn every 2 s
                                    b.findElement(By.cssSelector("button[data-cluster='gpu-west']"))
                                            .click();
                                    return true;
                                });
                waiting(browser)
                        .until(b -> b.findElements(By.cssSelector("#nodemap .cell[data-node]"))
                                        .size()
                                == 8);
                List<String> free = nodeMapFree(browser).stream().sorted().toList();
                assertThat(free).containsExactly("0", "2", "4", "4", "8", "8", "8", "8");
                screenshot(browser, "dashboard-fleet");

                // a gang submitted on the hub shows up, placed, within seconds; then the one that waits, with why
                for (String example : List.of(manifest, Files.readString(Path.of("examples/waits-for-h100.yaml")))) {
                    var hub = fleet.hub().client();
                    hub.resource(hub.getKubernetesSerialization()
                                    .unmarshal(
                                            example, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                            .create();
                }
                browser.findElement(By.id("tab-placements")).click();
                waiting(browser)
                        .until(b -> b.findElement(By.id("placement-table"))
                                .getText()
                                .contains("llama-finetune"));
                // the table is redrawn every 2 s: found and clicked in one try, tried again if it was redrawn between
                waiting(browser).until(b -> {
                    b.findElement(By.cssSelector("#placement-table button[data-uid]"))
                            .click();
                    return true;
                });
                waiting(browser)
                        .until(b -> b.findElement(By.id("explain")).getText().contains("(chosen)"));
                assertThat(browser.findElement(By.id("explain")).getText()).contains("gpu-east (chosen)", "gpu-west");
                screenshot(browser, "dashboard-placements");

                // keyboard: from the Placements tab, the left arrow goes to Queue
                browser.findElement(By.id("tab-placements")).sendKeys(Keys.ARROW_LEFT);
                waiting(browser)
                        .until(b ->
                                b.findElement(By.id("queue-table")).getText().contains("eval-h100"));
                assertThat(browser.findElement(By.id("tab-queue")).getAttribute("aria-selected"))
                        .isEqualTo("true");
                assertThat(browser.findElement(By.id("queue-table")).getText()).contains("waits for capacity");
                screenshot(browser, "dashboard-queue");

                // what-if: the same answer as POST /api/v1/plan
                String cluster =
                        api(fleet, "/api/v1/plan", manifest).path("cluster").asText();
                browser.findElement(By.id("tab-whatif")).click();
                browser.findElement(By.id("manifest")).sendKeys(manifest);
                browser.findElement(By.cssSelector("#whatif-form button[type=submit]"))
                        .click();
                waiting(browser)
                        .until(b -> !b.findElements(By.id("plan-result")).isEmpty());
                String answer = browser.findElement(By.id("plan-result")).getText();
                assertThat(answer)
                        .isEqualTo(
                                cluster.isEmpty() || cluster.equals("null")
                                        ? "Fits nowhere now"
                                        : "Placed on " + cluster);
                screenshot(browser, "dashboard-whatif");

                browser.findElement(By.id("tab-usage")).click();
                // no Queue objects on this hub: the queues table says so; llama-finetune's H100 time is counted
                waiting(browser)
                        .until(b ->
                                b.findElement(By.id("queues-table")).getText().equals("None.")
                                        && !b.findElement(By.id("usage-table"))
                                                .getText()
                                                .isEmpty());
                screenshot(browser, "dashboard-usage");

                // a phone's width: the same page, nothing wider than the screen but the tables' own scroll
                browser.manage().window().setSize(new Dimension(390, 844));
                browser.findElement(By.id("tab-fleet")).click();
                waiting(browser).until(b -> freeShown(b).size() == expected.size());
                assertThat(noHorizontalScroll(browser))
                        .as("no sideways scrolling at 390 px")
                        .isTrue();
                screenshot(browser, "dashboard-phone");

                // signing out forgets the token: the API calls stop, the sign-in form is back
                browser.manage().window().setSize(new Dimension(1280, 800));
                browser.findElement(By.id("signout")).click();
                assertThat(browser.findElement(By.id("signin")).isDisplayed()).isTrue();
            } finally {
                browser.quit();
            }
        }
    }

    @Test
    void aLongQueueIsDrawnOnlyWhereItIsInViewAndScrollsToItsEnd() throws Exception {
        try (LocalFleet fleet = FairShareIT.started(dir)) {
            // 240 one-pod Jobs asking 16 GPUs each: no node has 16, so all of them wait (more than the 200 rows from
            // which a table draws only what is in view)
            var hub = fleet.hub().client();
            for (int i = 0; i < 240; i++) {
                hub.resource(hub.getKubernetesSerialization()
                                .unmarshal(
                                        """
                                        apiVersion: batch/v1
                                        kind: Job
                                        metadata: {name: wait-%03d, namespace: ml}
                                        spec:
                                          template:
                                            spec:
                                              restartPolicy: Never
                                              containers: [{name: c, image: x, resources: {limits: {nvidia.com/gpu: "16"}}}]
                                        """.formatted(i),
                                        io.fabric8.kubernetes.api.model.GenericKubernetesResource.class))
                        .create();
            }
            WebDriver browser = chromium();
            try {
                // narrow enough that "why it waits" wraps: rows are taller than the table's nominal row height, and a
                // table that assumed that height drew nothing past the end (CI run of stop 42)
                browser.manage().window().setSize(new Dimension(720, 800));
                browser.get(fleet.dashboardUrl());
                waiting(browser)
                        .until(b -> !b.findElements(By.id("tab-queue")).isEmpty()
                                && b.findElement(By.id("tab-queue")).isDisplayed());
                browser.findElement(By.id("tab-queue")).click();
                waiting(browser)
                        .until(b -> queued(fleet) >= 240
                                && !b.findElements(By.cssSelector("#queue-table .scroll"))
                                        .isEmpty()
                                && positions(b).contains("1"));
                int drawn = positions(browser).size();
                assertThat(drawn).as("rows in the DOM of 240").isBetween(20, 120);
                assertThat(positions(browser)).doesNotContain("240");
                ((JavascriptExecutor) browser)
                        .executeScript("const s = document.querySelector('#queue-table .scroll');"
                                + " s.scrollTop = s.scrollHeight;");
                waiting(browser).until(b -> positions(b).contains("240"));
                Thread.sleep(2_500); // a refresh (every 2 s) keeps where the table was scrolled to
                assertThat(positions(browser)).contains("240").doesNotContain("1");
            } finally {
                browser.quit();
            }
        }
    }

    /**
     * The queue positions (first column) of the queue table's rows in the DOM, read in one script (the table is drawn
     * anew every 2 s, so elements found one by one may be gone by the next call).
     */
    @SuppressWarnings("unchecked")
    static List<String> positions(WebDriver browser) {
        Object texts = ((JavascriptExecutor) browser)
                .executeScript("return [...document.querySelectorAll('#queue-table tbody tr[data-key] td:first-child')]"
                        + ".map(td => td.textContent);");
        return (List<String>) texts;
    }

    /** How many gangs wait, as the broker says. */
    static int queued(LocalFleet fleet) {
        try {
            return api(fleet, "/api/v1/fleet/summary", null).path("queued").asInt();
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }
}
