package dev.cartograph.interpreter.jq;

import java.util.Set;
import net.thisptr.jackson.jq.BuiltinFunctionLoader;
import net.thisptr.jackson.jq.JsonQuery;
import net.thisptr.jackson.jq.Scope;
import net.thisptr.jackson.jq.Version;
import net.thisptr.jackson.jq.Versions;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import net.thisptr.jackson.jq.module.ModuleLoader;

/**
 * The jq engine: a curated, immutable function scope and a compiler. Thread-safe; compiled
 * expressions are immutable and may be evaluated from any thread.
 *
 * <p>The scope holds jq 1.6's builtins except those that reach outside the input: no {@code now},
 * {@code env}/{@code $ENV}, {@code input}/{@code inputs}, {@code debug}/{@code stderr},
 * {@code input_filename}, local-time functions or modules. Every compiled expression, and every
 * builtin, is metered so that each evaluation is bounded by {@link JqLimits} (see {@link Metering}).
 */
public final class Jq {
    static final Version VERSION = Versions.JQ_1_6;

    /** Functions (name/arity) that would make an expression impure: time, environment, I/O. */
    static final Set<String> DENIED = Set.of(
            "now/0",
            "env/0",
            "input/0",
            "inputs/0",
            "debug/0",
            "debug/1",
            "stderr/0",
            "input_filename/0",
            "input_line_number/0",
            "$__loc__/0",
            "localtime/0",
            "strflocaltime/1",
            "get_search_list/0",
            "halt/0",
            "halt_error/0",
            "halt_error/1",
            "builtins/0");

    private static final int MAX_MESSAGE = 1_000;
    private static final Jq STANDARD = new Jq(JqLimits.DEFAULT);

    private final Scope rootScope;
    private final JqLimits limits;

    private Jq(JqLimits limits) {
        this.limits = limits;
        this.rootScope = curatedScope();
    }

    /** The shared engine with {@link JqLimits#DEFAULT}. */
    public static Jq standard() {
        return STANDARD;
    }

    /** An engine with other limits (tests, benchmarks). */
    public static Jq withLimits(JqLimits limits) {
        return new Jq(limits);
    }

    public JqLimits limits() {
        return limits;
    }

    /**
     * Compiles an expression once. Never throws for bad input: a syntax error, or a call to a
     * function outside the curated scope, comes back as {@link Compiled.Failed}.
     */
    public Compiled compile(String source) {
        if (source == null || source.isBlank()) {
            return new Compiled.Failed("empty jq expression");
        }
        try {
            JsonQuery query = JsonQuery.compile(source, VERSION);
            return new Compiled.Ok(new JqExpression(source, Metering.meter(query), this));
        } catch (JsonQueryException e) {
            return new Compiled.Failed(cleanMessage(e));
        } catch (RuntimeException | StackOverflowError e) {
            return new Compiled.Failed("cannot compile: " + e);
        }
    }

    Scope newEvaluationScope() {
        return Scope.newChildScope(rootScope);
    }

    /** True when {@code nameAndArity} is a builtin written in Java in this engine's scope. */
    boolean hasJavaBuiltin(String nameAndArity) {
        return rootScope.getLocalFunctions().get(nameAndArity) instanceof BoundedFunction;
    }

    /** An exception's message, cut to {@value #MAX_MESSAGE} characters: jq's {@code error(v)} prints any value. */
    static String cleanMessage(Throwable e) {
        String message = e.getMessage();
        if (message == null) {
            return e.getClass().getSimpleName();
        }
        message = message.strip();
        return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "…";
    }

    private static Scope curatedScope() {
        Scope scope = Scope.newEmptyScope();
        scope.setModuleLoader(new NoModules());
        BuiltinFunctionLoader loader = BuiltinFunctionLoader.getInstance();
        ClassLoader classLoader = new JqJarOnly(Jq.class.getClassLoader());
        loader.loadFunctionsFromServiceLoader(classLoader, VERSION).forEach((nameAndArity, function) -> {
            if (!DENIED.contains(nameAndArity)) {
                scope.addFunction(nameAndArity, new BoundedFunction(nameAndArity, function));
            }
        });
        // jq-defined builtins resolve the functions they call in this scope, so they see the bounded
        // natives added above; their own bodies are metered like a definition's expressions.
        loader.loadFunctionsFromJsonJq(classLoader, VERSION, scope).forEach((nameAndArity, function) -> {
            if (!DENIED.contains(nameAndArity)) {
                Metering.meterBody(function);
                scope.addFunction(nameAndArity, function);
            }
        });
        return scope;
    }

    /**
     * Finds jackson-jq's builtin resources (service files, jq.json) in jackson-jq's own jar only,
     * instead of scanning every jar on a large classpath; classes still load normally.
     */
    private static final class JqJarOnly extends ClassLoader {
        private final java.net.URL jar = JsonQuery.class.getProtectionDomain().getCodeSource() == null
                ? null
                : JsonQuery.class.getProtectionDomain().getCodeSource().getLocation();

        JqJarOnly(ClassLoader parent) {
            super(parent);
        }

        @Override
        public java.util.Enumeration<java.net.URL> getResources(String name) throws java.io.IOException {
            boolean jqResource = name.startsWith("net/thisptr/") || name.startsWith("META-INF/services/net.thisptr.");
            if (jqResource && jar != null && jar.getPath().endsWith(".jar")) {
                java.net.URL url = new java.net.URL("jar:" + jar + "!/" + name);
                try (java.io.InputStream probe = url.openStream()) {
                    return java.util.Collections.enumeration(java.util.List.of(url));
                } catch (java.io.IOException absent) {
                    return java.util.Collections.emptyEnumeration();
                }
            }
            return super.getResources(name);
        }
    }

    /** Modules would read files: refused. */
    private static final class NoModules implements ModuleLoader {
        @Override
        public net.thisptr.jackson.jq.module.Module loadModule(
                net.thisptr.jackson.jq.module.Module caller,
                String path,
                com.fasterxml.jackson.databind.JsonNode metadata)
                throws JsonQueryException {
            throw new JsonQueryException("modules are not available in definitions: " + path);
        }

        @Override
        public com.fasterxml.jackson.databind.JsonNode loadData(
                net.thisptr.jackson.jq.module.Module caller,
                String path,
                com.fasterxml.jackson.databind.JsonNode metadata)
                throws JsonQueryException {
            throw new JsonQueryException("data imports are not available in definitions: " + path);
        }
    }

    /** The outcome of compiling: an expression, or the reason it does not compile. */
    public sealed interface Compiled {
        record Ok(JqExpression expression) implements Compiled {}

        record Failed(String reason) implements Compiled {}
    }
}
