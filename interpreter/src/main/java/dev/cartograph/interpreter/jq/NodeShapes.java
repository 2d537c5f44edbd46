package dev.cartograph.interpreter.jq;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.thisptr.jackson.jq.Expression;

/**
 * The shapes of jackson-jq's tree nodes, as {@link Metering} rewrites them: for every node class, how it is
 * metered ({@link Kind}) and which of its fields hold sub-expressions, in which {@link Role}. The table is
 * {@link #SPEC}; when this class loads, each listed class is checked by reflection to hold sub-expressions in
 * exactly the listed fields, so a jackson-jq whose nodes changed fails at startup with the difference.
 * Immutable and thread-safe.
 */
final class NodeShapes {
    static final String JQ = "net.thisptr.jackson.jq.";

    /**
     * How a node is metered. LEAF: one value, no work. PLAIN: composes its children only, emitting
     * what they emit (a pipe, a comma, a branch): its children are metered, so it need not be, and
     * the hottest nodes cost nothing. SINGLE: as PLAIN, and gives at most one value when each child
     * does ({@code .name}, {@code a // b}). PAIRWISE: combines every value of one child with every
     * value of another ({@code ==}, {@code and}, {@code .[i]}): PASSING, unless each child gives at
     * most one value, when it is SINGLE. PASSING: loops, iterates or runs a body, so it counts its
     * applications, nesting and emissions. BUILDING: as PASSING, and sizes what it emits. PART: not
     * an expression, only holds some.
     */
    enum Kind {
        LEAF,
        PLAIN,
        SINGLE,
        PAIRWISE,
        PASSING,
        BUILDING,
        PART
    }

    /** What a field's expressions are to their node. */
    enum Role {
        CHILD,
        COLLECTED,
        ASSIGNED,
        CALLED
    }

    /** A field of a node class that holds sub-expressions, and what they are to the node. */
    record Slot(Field field, Role role) {}

    /** How a node class is metered and where its sub-expressions are. */
    record Shape(Kind kind, List<Slot> slots) {}

    /**
     * Every node class of jackson-jq 1.6's trees, its kind, and the fields that hold sub-expressions
     * ({@code name:collected} for the body of {@code [...]}, {@code name:assigned} for the paths an
     * assignment writes, {@code name:called} for the body of a {@code def}, metered once per call,
     * which is what bounds recursion). Abstract bases are not listed; their fields are named on each
     * subclass. A call itself is plain: a builtin written in Java meters itself ({@link BoundedFunction}).
     */
    private static final List<String> SPEC = List.of(
            "internal.IsolatedScopeQuery PLAIN q",
            "internal.tree.TopLevelExpression PLAIN expr",
            "internal.tree.PipedQuery PLAIN components",
            "internal.tree.TransformPipeComponent PART expr",
            "internal.tree.AssignPipeComponent PART expr matcher",
            "internal.tree.LabelPipeComponent PART",
            "internal.tree.FunctionDefinition PLAIN body:called",
            "internal.tree.FunctionCall PLAIN args",
            "internal.tree.ArrayConstruction BUILDING q:collected",
            "internal.tree.ObjectConstruction BUILDING fields",
            "internal.tree.StringKeyFieldConstruction PART key value",
            "internal.tree.IdentifierKeyFieldConstruction PART value",
            "internal.tree.JsonQueryKeyFieldConstruction PART key value",
            "internal.tree.VariableKeyFieldConstruction PART",
            "internal.tree.StringInterpolation BUILDING interpolations formatter",
            "internal.tree.FormattingFilter BUILDING",
            "internal.tree.TryCatch PLAIN tryExpr catchExpr",
            "internal.tree.TryCatch$Question PLAIN tryExpr catchExpr",
            "internal.tree.Conditional PLAIN switches otherwise",
            "internal.tree.ReduceExpression PASSING iterExpr reduceExpr initExpr matcher",
            "internal.tree.ForeachExpression PASSING iterExpr updateExpr initExpr extractExpr matcher",
            "internal.tree.SemicolonOperator PLAIN qs",
            "internal.tree.Tuple PLAIN qs",
            "internal.tree.NegativeExpression SINGLE value",
            "internal.tree.RecursionOperator PASSING",
            "internal.tree.BreakExpression LEAF",
            "internal.tree.ThisObject LEAF",
            "internal.tree.VariableAccess LEAF",
            "internal.tree.literal.BooleanLiteral LEAF",
            "internal.tree.literal.DoubleLiteral LEAF",
            "internal.tree.literal.LongLiteral LEAF",
            "internal.tree.literal.NullLiteral LEAF",
            "internal.tree.literal.StringLiteral LEAF",
            "internal.tree.fieldaccess.IdentifierFieldAccess SINGLE target",
            "internal.tree.fieldaccess.StringFieldAccess PAIRWISE target field",
            "internal.tree.fieldaccess.BracketFieldAccess PAIRWISE target startExpr endExpr",
            "internal.tree.fieldaccess.BracketExtractFieldAccess PASSING target",
            "internal.tree.binaryop.BooleanAndExpression PAIRWISE lhs rhs",
            "internal.tree.binaryop.BooleanOrExpression PAIRWISE lhs rhs",
            "internal.tree.binaryop.AlternativeOperatorExpression SINGLE lhs rhs",
            "internal.tree.binaryop.PlusExpression BUILDING lhs rhs operator",
            "internal.tree.binaryop.MinusExpression BUILDING lhs rhs operator",
            "internal.tree.binaryop.MultiplyExpression BUILDING lhs rhs operator",
            "internal.tree.binaryop.DivideExpression BUILDING lhs rhs operator",
            "internal.tree.binaryop.ModuloExpression BUILDING lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareEqualTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareNotEqualTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareLessTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareLessEqualTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareGreaterTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.comparison.CompareGreaterEqualTest PAIRWISE lhs rhs operator",
            "internal.tree.binaryop.assignment.Assignment BUILDING lhs:assigned rhs",
            "internal.tree.binaryop.assignment.UpdateAssignment BUILDING lhs:assigned rhs",
            "internal.tree.binaryop.assignment.ComplexAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexPlusAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexMinusAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexMultiplyAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexDivideAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexModuloAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.binaryop.assignment.ComplexAlternativeAssignment BUILDING lhs:assigned rhs operator",
            "internal.tree.matcher.matchers.ValueMatcher PART",
            "internal.tree.matcher.matchers.ArrayMatcher PART matchers",
            "internal.tree.matcher.matchers.ObjectMatcher PART matchers",
            "internal.tree.matcher.matchers.ObjectMatcher$FieldMatcher PART name matcher");

    /** Types whose values are parts of a tree: the fields of these types must all be listed. */
    private static final Set<String> TREE_TYPES = Set.of(
            JQ + "Expression",
            JQ + "internal.operators.BinaryOperator",
            JQ + "internal.tree.PipeComponent",
            JQ + "internal.tree.FieldConstruction",
            JQ + "internal.tree.matcher.PatternMatcher",
            JQ + "internal.tree.matcher.matchers.ObjectMatcher$FieldMatcher");

    /** Fields of listed classes that hold tree types but are deliberately not rewritten. */
    private static final Set<String> UNMETERED = Set.of(
            "internal.tree.TopLevelExpression.imports", // module imports: refused by the engine's loader
            "internal.tree.TopLevelExpression.moduleDirective");

    private static final Map<Class<?>, Shape> SHAPES = shapes();

    private NodeShapes() {}

    /** The shape of {@code nodeClass}; empty for a class not in {@link #SPEC} (or not a node). */
    static Optional<Shape> of(Class<?> nodeClass) {
        return Optional.ofNullable(SHAPES.get(nodeClass));
    }

    /** True for every node class in {@link #SPEC} (tests compare it with jackson-jq's jar). */
    static boolean knows(Class<?> nodeClass) {
        return SHAPES.containsKey(nodeClass);
    }

    private static Map<Class<?>, Shape> shapes() {
        Map<Class<?>, Shape> shapes = new HashMap<>();
        for (String line : SPEC) {
            String[] words = line.split(" ");
            Class<?> type = jqClass(words[0]);
            List<Slot> slots = new ArrayList<>();
            Set<String> listed = new LinkedHashSet<>();
            for (int i = 2; i < words.length; i++) {
                String[] nameAndRole = words[i].split(":");
                Role role = nameAndRole.length == 1 ? Role.CHILD : Role.valueOf(nameAndRole[1].toUpperCase());
                slots.add(new Slot(field(type, nameAndRole[0]), role));
                listed.add(nameAndRole[0]);
            }
            Set<String> structural = structuralFields(type, words[0]);
            if (!structural.equals(listed)) {
                throw new IllegalStateException("jackson-jq's " + type.getName() + " holds sub-expressions in "
                        + structural + ", the evaluation budget meters " + listed + "; update NodeShapes.SPEC");
            }
            shapes.put(type, new Shape(Kind.valueOf(words[1]), List.copyOf(slots)));
        }
        return Map.copyOf(shapes);
    }

    private static Class<?> jqClass(String name) {
        try {
            return Class.forName(JQ + name, false, Expression.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("jackson-jq has no " + JQ + name + "; update NodeShapes.SPEC", e);
        }
    }

    /** The instance fields of {@code type} and its supertypes whose values can hold tree nodes. */
    private static Set<String> structuralFields(Class<?> type, String specName) {
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())
                        && holdsTree(f.getGenericType())
                        && !UNMETERED.contains(specName + "." + f.getName())) {
                    names.add(f.getName());
                }
            }
        }
        return names;
    }

    private static boolean holdsTree(Type type) {
        if (type instanceof ParameterizedType p) {
            for (Type argument : p.getActualTypeArguments()) {
                if (holdsTree(argument)) {
                    return true;
                }
            }
            return holdsTree(p.getRawType());
        }
        return type instanceof Class<?> c && TREE_TYPES.contains(c.getName());
    }

    static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f;
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new IllegalStateException(
                "jackson-jq's " + type.getName() + " has no field '" + name + "'; update NodeShapes.SPEC");
    }
}
