package dev.cartograph.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The module graph drawn in docs/architecture.md is the one the poms declare. */
@Timeout(30)
class ModuleGraphDocTest {

    private static final String PREFIX = "cartograph-";
    private static final Pattern NODE = Pattern.compile("^\\s*(\\w+)\\[\"[^\"<]*<br/>([\\w-]+)");
    private static final Pattern EDGE = Pattern.compile("^\\s*(\\w+)\\s*-->\\s*(\\w+)\\s*$");

    private final Path root = Path.of(System.getProperty("cartograph.root", "../.."))
            .toAbsolutePath()
            .normalize();

    @Test
    void architectureDocDrawsExactlyThePomsCompileDependencies() throws Exception {
        assertThat(drawnEdges()).isEqualTo(pomEdges());
    }

    /** {@code module -> module} for every compile-scope internal dependency, deploy/architecture left out. */
    private Set<String> pomEdges() throws Exception {
        Set<String> edges = new TreeSet<>();
        for (String module : children(pom(root.resolve("pom.xml")), "modules", "module")) {
            Element project = pom(root.resolve(module).resolve("pom.xml"));
            String from = text(project, "artifactId");
            if (from.equals(PREFIX + "architecture")) {
                continue;
            }
            NodeList dependencies = project.getElementsByTagName("dependency");
            for (int i = 0; i < dependencies.getLength(); i++) {
                Element dependency = (Element) dependencies.item(i);
                boolean internal = text(dependency, "groupId").equals("dev.cartograph");
                boolean managed =
                        dependency.getParentNode().getParentNode().getNodeName().equals("dependencyManagement");
                String scope = text(dependency, "scope");
                if (internal && !managed && (scope.isEmpty() || scope.equals("compile"))) {
                    edges.add(strip(from) + " -> " + strip(text(dependency, "artifactId")));
                }
            }
        }
        return edges;
    }

    /** {@code module -> module} for every arrow of the mermaid diagram, nodes named by the artifact in their label. */
    private Set<String> drawnEdges() throws IOException {
        var artifactOfNode = new java.util.HashMap<String, String>();
        var arrows = new ArrayList<String[]>();
        for (String line : Files.readAllLines(root.resolve("docs/architecture.md"))) {
            Matcher node = NODE.matcher(line);
            Matcher edge = EDGE.matcher(line);
            if (node.find()) {
                artifactOfNode.put(node.group(1), node.group(2));
            } else if (edge.matches()) {
                arrows.add(new String[] {edge.group(1), edge.group(2)});
            }
        }
        Set<String> edges = new TreeSet<>();
        for (String[] arrow : arrows) {
            assertThat(artifactOfNode).as("nodes drawn in docs/architecture.md").containsKeys(arrow);
            edges.add(artifactOfNode.get(arrow[0]) + " -> " + artifactOfNode.get(arrow[1]));
        }
        return edges;
    }

    private static Element pom(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(file.toFile())
                .getDocumentElement();
    }

    private static ArrayList<String> children(Element parent, String list, String item) {
        var result = new ArrayList<String>();
        NodeList items = ((Element) parent.getElementsByTagName(list).item(0)).getElementsByTagName(item);
        for (int i = 0; i < items.getLength(); i++) {
            result.add(items.item(i).getTextContent().trim());
        }
        return result;
    }

    /** The text of the element's own child {@code name}, or "" when it has none. */
    private static String text(Element element, String name) {
        for (var child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return "";
    }

    private static String strip(String artifactId) {
        return artifactId.startsWith(PREFIX) ? artifactId.substring(PREFIX.length()) : artifactId;
    }
}
