package dev.cartograph.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cartograph.interpreter.problem.Problem;
import dev.cartograph.interpreter.resources.Quantity;
import dev.cartograph.interpreter.resources.ResourceList;
import dev.cartograph.interpreter.view.ComponentView;
import dev.cartograph.interpreter.view.Gang;
import dev.cartograph.interpreter.view.InstanceView;
import dev.cartograph.interpreter.view.Phase;
import dev.cartograph.interpreter.view.WorkloadView;
import java.util.List;

/** The JSON form of a workload view, as {@code carto describe -o json} prints it. Pure. */
final class ViewJson {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ViewJson() {}

    static ObjectNode of(WorkloadView view, List<Problem> problems) {
        return of(view, problems, null);
    }

    /** With {@code pods} (by "component/instance", from a live cluster), each instance lists its pods. */
    static ObjectNode of(WorkloadView view, List<Problem> problems, java.util.Map<String, List<PodSummary>> pods) {
        ObjectNode out = F.objectNode();
        out.put("apiVersion", view.identity().apiVersion());
        out.put("kind", view.identity().kind());
        out.put("name", view.identity().name());
        view.identity().namespace().ifPresentOrElse(ns -> out.put("namespace", ns), () -> out.putNull("namespace"));
        out.put("definition", view.definition());
        out.put("origin", view.origin());
        out.put("phase", view.phase().displayName());
        ArrayNode phases = out.putArray("phases");
        view.status().phases().stream().map(Phase::displayName).forEach(phases::add);
        out.put("pods", view.totals().pods());
        out.set("resources", resources(view.totals().resources()));
        out.set("gang", gang(view.gang()));
        ArrayNode components = out.putArray("components");
        components.add(component(view.root(), pods));
        if (!view.status().conditions().isEmpty()) {
            ArrayNode conditions = out.putArray("conditions");
            view.status().conditions().forEach(c -> {
                ObjectNode n = conditions.addObject().put("type", c.type());
                c.status().ifPresent(s -> n.put("status", s));
                c.reason().ifPresent(s -> n.put("reason", s));
                c.message().ifPresent(s -> n.put("message", s));
            });
        }
        if (!problems.isEmpty() || !view.status().errors().isEmpty()) {
            ArrayNode p = out.putArray("problems");
            problems.forEach(pr -> p.add(pr.toString()));
            view.status().errors().forEach(e -> p.add("status: " + e));
        }
        return out;
    }

    static ObjectNode resources(ResourceList list) {
        ObjectNode r = F.objectNode();
        r.put("gpus", list.gpus());
        r.put("cpuMillis", list.cpuMillis());
        r.put("memoryBytes", list.memoryBytes());
        ObjectNode extended = F.objectNode();
        list.amounts().forEach((name, amount) -> {
            if (!List.of(ResourceList.CPU, ResourceList.MEMORY, ResourceList.GPU)
                    .contains(name)) {
                extended.put(name, Quantity.format(amount));
            }
        });
        if (!extended.isEmpty()) {
            r.set("extended", extended);
        }
        return r;
    }

    private static ObjectNode gang(Gang gang) {
        ObjectNode g = F.objectNode().put("minMember", gang.minMember());
        ArrayNode groups = g.putArray("groups");
        for (Gang.Group group : gang.groups()) {
            ObjectNode n = groups.addObject()
                    .put("name", group.name())
                    .put("count", group.count())
                    .put("minMember", group.minMember());
            ArrayNode members = n.putArray("members");
            group.members()
                    .forEach(m -> members.addObject()
                            .put("component", m.component())
                            .put("instance", m.instance())
                            .put("pods", m.pods()));
        }
        return g;
    }

    private static ObjectNode component(ComponentView c, java.util.Map<String, List<PodSummary>> pods) {
        ObjectNode n = F.objectNode().put("name", c.name());
        c.kind().ifPresentOrElse(k -> n.put("kind", k.kind()), () -> n.putNull("kind"));
        ArrayNode instances = n.putArray("instances");
        for (InstanceView i : c.instances()) {
            ObjectNode in = instances.addObject().put("id", i.id());
            ObjectNode replicas = in.putObject("replicas")
                    .put("desired", i.replicas().desired())
                    .put("min", i.replicas().min());
            i.replicas().max().ifPresentOrElse(m -> replicas.put("max", m), () -> replicas.putNull("max"));
            in.put("pods", i.hasPods());
            in.set("perPod", resources(i.perPod()));
            if (!i.nodeSelector().isEmpty()) {
                ObjectNode ns = in.putObject("nodeSelector");
                i.nodeSelector().forEach(ns::put);
            }
            i.priorityClassName().ifPresent(p -> in.put("priorityClassName", p));
            if (pods != null && i.hasPods()) {
                ArrayNode list = in.putArray("pods");
                for (PodSummary p : pods.getOrDefault(c.name() + "/" + i.id(), List.of())) {
                    list.addObject()
                            .put("name", p.name())
                            .put("node", p.node())
                            .put("phase", p.phase())
                            .put("ready", p.ready())
                            .put("restarts", p.restarts())
                            .put("reason", p.reason());
                }
            }
        }
        ArrayNode children = n.putArray("children");
        c.children().forEach(child -> children.add(component(child, pods)));
        return n;
    }
}
