package dev.cartograph.interpreter.jq;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import net.thisptr.jackson.jq.Expression;
import net.thisptr.jackson.jq.Function;
import net.thisptr.jackson.jq.PathOutput;
import net.thisptr.jackson.jq.Scope;
import net.thisptr.jackson.jq.Version;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import net.thisptr.jackson.jq.path.Path;

/** A builtin that ticks the evaluation budget on every call and every value it emits. */
final class BoundedFunction implements Function {
    private final Function delegate;

    BoundedFunction(Function delegate) {
        this.delegate = delegate;
    }

    @Override
    public void apply(Scope scope, List<Expression> args, JsonNode in, Path path, PathOutput output,
                      Version version) throws JsonQueryException {
        Budget.tickCurrent();
        delegate.apply(scope, args, in, path, (value, valuePath) -> {
            Budget.tickCurrent();
            output.emit(value, valuePath);
        }, version);
    }
}
