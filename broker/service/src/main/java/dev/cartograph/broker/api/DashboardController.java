package dev.cartograph.broker.api;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The fleet dashboard: one page ({@code /}) and its script and style ({@code /ui/app.js}, {@code /ui/app.css}), read
 * from the classpath once. They hold no data and are open ({@link AccessFilter#open}); the page signs in with a bearer
 * token and calls the REST API with it, as any client does. Served with a content security policy that allows
 * nothing but this origin (no inline script, no framing) and no referrer, so a {@code /?token=} link does not leak.
 */
@Controller
@Hidden
public class DashboardController {
    /** The files served, by name under {@code /ui/}, with their content types. */
    static final Map<String, String> ASSETS =
            Map.of("app.js", "text/javascript; charset=utf-8", "app.css", "text/css; charset=utf-8");

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final Map<String, byte[]> files;

    public DashboardController() {
        this.files = Map.of(
                "index.html", read("index.html"),
                "app.js", read("app.js"),
                "app.css", read("app.css"));
    }

    @Get(uri = "/", produces = MediaType.TEXT_HTML)
    public HttpResponse<byte[]> page() {
        return serve("index.html", "text/html; charset=utf-8");
    }

    @Get("/ui/{file}")
    public HttpResponse<byte[]> asset(@PathVariable String file) {
        String type = ASSETS.get(file);
        return type == null ? HttpResponse.notFound() : serve(file, type);
    }

    private HttpResponse<byte[]> serve(String file, String type) {
        return HttpResponse.ok(files.get(file))
                .header("Content-Type", type)
                .header("Content-Security-Policy", CSP)
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-cache");
    }

    private static byte[] read(String name) {
        try (InputStream in = DashboardController.class.getResourceAsStream("/dashboard/" + name)) {
            if (in == null) {
                throw new IllegalStateException("dashboard/" + name + " is missing from the classpath (broken build)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
