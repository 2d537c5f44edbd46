package dev.cartograph.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.PrintWriter;

/** Reports a command's failure: a JSON object on stdout in json/yaml mode, a line on stderr otherwise. */
final class Errors {
    private final boolean structured;
    private final PrintWriter out;
    private final PrintWriter err;

    Errors(Output output, PrintWriter out, PrintWriter err) {
        this.structured = output.structured();
        this.out = out;
        this.err = err;
    }

    int fail(int exit, String code, String message) {
        if (structured) {
            out.println(JsonNodeFactory.instance
                    .objectNode()
                    .put("error", code)
                    .put("message", message)
                    .toPrettyString());
            out.flush();
        } else {
            err.println("error: " + message);
            err.flush();
        }
        return exit;
    }
}
