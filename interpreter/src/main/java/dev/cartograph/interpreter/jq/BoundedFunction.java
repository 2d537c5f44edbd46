package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.Function;
import net.thisptr.jackson.jq.PathOutput;
import net.thisptr.jackson.jq.Scope;
import net.thisptr.jackson.jq.Version;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import net.thisptr.jackson.jq.path.Path;

/**
 * A builtin written in Java, metered like an expression node: a step and a level of nesting per
 * call, a step and the size of every value it emits. Builtins whose one call can do unbounded work
 * are charged for it before they run: those that walk a whole value (serialize, sort, compare) bound
 * its deep size, those that match every element against every other charge the product, and those
 * that write at paths charge the copies. Immutable and thread-safe.
 */
final class BoundedFunction implements Function {
    /**
     * Builtins that walk their input, and the values their arguments give, whole: to serialize,
     * compare or sort them, or to print them into the error they raise for the wrong type.
     */
    private static final Set<String> WALKING = Set.of(
            "tojson/0",
            "tostring/0",
            "join/1",
            "error/0",
            "error/1",
            "@csv/0",
            "@tsv/0",
            "@html/0",
            "@uri/0",
            "@sh/0",
            "@base64/0",
            "@base64d/0",
            "sort_by/1",
            "group_by/1",
            "min_by/1",
            "max_by/1",
            "contains/1",
            "indices/1",
            "index/1",
            "rindex/1",
            "tonumber/0",
            "utf8bytelength/0",
            "reverse/0",
            "to_entries/0",
            "from_entries/0",
            "fromjson/0",
            "ltrimstr/1",
            "rtrimstr/1",
            "startswith/1",
            "endswith/1",
            "split/1",
            "explode/0",
            "implode/0",
            "_match_impl/3");
    /** Builtins that sort their input: n log n comparisons. */
    private static final Set<String> SORTING = Set.of("sort_by/1", "group_by/1", "keys/0");
    /** Builtins that search their input for their argument: up to n × m comparisons. */
    private static final Set<String> SEARCHING = Set.of("contains/1", "indices/1", "index/1", "rindex/1");
    /**
     * Builtins that run a regular expression over their input: one call finds every match, each
     * turned into an object, before it emits anything, so it is charged up front per character.
     */
    private static final Set<String> MATCHING = Set.of("_match_impl/3", "_sub_impl/3");

    private static final int STEPS_PER_MATCHED_CHARACTER = 16;
    /** Builtins that write at the paths their first argument gives. */
    private static final Map<String, Boolean> WRITING = Map.of("setpath/2", false, "delpaths/1", true);

    /** Every builtin charged for more than its calls and values (tests check each is one). */
    static Set<String> charged() {
        Set<String> names = new TreeSet<>(WALKING);
        names.addAll(SORTING);
        names.addAll(SEARCHING);
        names.addAll(MATCHING);
        names.addAll(WRITING.keySet());
        return names;
    }

    private final Function delegate;
    private final boolean walking;
    private final boolean sorting;
    private final boolean searching;
    private final boolean matching;
    private final Boolean writesManyPaths;

    BoundedFunction(String nameAndArity, Function delegate) {
        this.delegate = delegate;
        this.walking = WALKING.contains(nameAndArity);
        this.sorting = SORTING.contains(nameAndArity);
        this.searching = SEARCHING.contains(nameAndArity);
        this.matching = MATCHING.contains(nameAndArity);
        this.writesManyPaths = WRITING.get(nameAndArity);
    }

    @Override
    public void apply(Scope scope, List<Expression> args, JsonNode in, Path path, PathOutput output, Version version)
            throws JsonQueryException {
        Budget budget = Budget.current();
        if (budget == null) {
            delegate.apply(scope, args, in, path, output, version);
            return;
        }
        budget.enter();
        try {
            delegate.apply(
                    scope,
                    charged(budget, args, in),
                    in,
                    path,
                    (value, valuePath) -> {
                        budget.step();
                        budget.built(value);
                        output.emit(value, valuePath);
                    },
                    version);
        } finally {
            budget.leave();
        }
    }

    private List<Expression> charged(Budget budget, List<Expression> args, JsonNode in) {
        if (matching && in.isTextual()) {
            budget.steps((long) STEPS_PER_MATCHED_CHARACTER * in.textValue().length());
        }
        if (sorting && in.size() > 1) {
            budget.steps((long) in.size() * (64 - Long.numberOfLeadingZeros(in.size())));
        }
        if (walking) {
            budget.walkable(in);
            return each(args, value -> {
                budget.walkable(value);
                if (searching) {
                    budget.steps((long) Math.max(1, size(in)) * Math.max(1, size(value)));
                }
            });
        }
        Boolean manyPaths = writesManyPaths;
        if (manyPaths != null && !args.isEmpty()) {
            List<Expression> charged = new ArrayList<>(args);
            charged.set(0, Checked.each(args.get(0), value -> {
                if (manyPaths && value.isArray()) {
                    value.forEach(p -> Paths.charge(budget, in, p));
                } else {
                    Paths.charge(budget, in, value);
                }
            }));
            return charged;
        }
        return args;
    }

    private List<Expression> each(List<Expression> args, Checked.Check check) {
        if (args.isEmpty()) {
            return args;
        }
        if (!searching && args.stream().allMatch(Metering::isLiteral)) {
            return args; // join(","), startswith("x"): nothing built to walk
        }
        List<Expression> charged = new ArrayList<>(args.size());
        for (Expression arg : args) {
            charged.add(Metering.isLiteral(arg) ? arg : Checked.each(arg, check));
        }
        return charged;
    }

    private static long size(JsonNode value) {
        return value.isTextual() ? value.textValue().length() : value.size();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    /** An argument whose every value is checked before the builtin sees it. */
    private static final class Checked implements Expression {
        interface Check {
            void accept(JsonNode value) throws JsonQueryException;
        }

        private final Expression inner;
        private final Check check;

        private Checked(Expression inner, Check check) {
            this.inner = inner;
            this.check = check;
        }

        static Expression each(Expression inner, Check check) {
            return inner == null ? null : new Checked(inner, check);
        }

        @Override
        public void apply(Scope scope, JsonNode in, Path path, PathOutput output, boolean requirePath)
                throws JsonQueryException {
            inner.apply(
                    scope,
                    in,
                    path,
                    (value, valuePath) -> {
                        check.accept(value);
                        output.emit(value, valuePath);
                    },
                    requirePath);
        }

        @Override
        public String toString() {
            return inner.toString();
        }
    }
}
