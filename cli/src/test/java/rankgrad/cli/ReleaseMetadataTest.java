package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import rankgrad.ltr.LibraryVersion;

/**
 * The release as Maven Central would take it: one version (not a SNAPSHOT) in every pom, the BOM
 * and {@link LibraryVersion}; the metadata Central requires on the parent (which every published
 * module inherits) and on the BOM (which has no parent); the BOM managing exactly the published
 * modules; and examples/ depending on the serving artifact alone, at that version.
 */
class ReleaseMetadataTest {
    private static final Path ROOT = DocPages.root();
    private static final List<String> CENTRAL_REQUIRES = List.of("name", "description", "url", "licenses", "developers", "scm");

    @Test
    void oneReleaseVersionEverywhere() throws Exception {
        String version = text(pom(ROOT.resolve("pom.xml")), "version");
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+"), "a release version: " + version);
        assertEquals(version, LibraryVersion.get(), "LibraryVersion (written into model files) reads the build's version");
        assertEquals(version, text(pom(ROOT.resolve("bom/pom.xml")), "version"));
        for (Path module : modules()) {
            Element parent = child(pom(module), "parent");
            assertEquals(version, text(parent, "version"), module + ": its parent's version");
        }
    }

    @Test
    void theParentAndTheBomCarryWhatMavenCentralRequires() throws Exception {
        for (Path file : List.of(ROOT.resolve("pom.xml"), ROOT.resolve("bom/pom.xml"))) {
            Element pom = pom(file);
            for (String field : CENTRAL_REQUIRES) {
                assertFalse(text(pom, field).isBlank(), file + ": <" + field + "> is missing");
            }
            Element license = child(child(pom, "licenses"), "license");
            assertFalse(text(license, "name").isBlank() || text(license, "url").isBlank(), file + ": licence name and url");
            Element scm = child(pom, "scm");
            assertFalse(text(scm, "connection").isBlank() || text(scm, "url").isBlank(), file + ": scm connection and url");
        }
        // Inherited unchanged: no artifactId appended to the modules' url and scm.
        assertEquals("false", pom(ROOT.resolve("pom.xml")).getAttribute("child.project.url.inherit.append.path"));
    }

    @Test
    void theBomManagesExactlyThePublishedModules() throws Exception {
        Set<String> published = new TreeSet<>();
        for (Path module : modules()) {
            Element pom = pom(module);
            Element properties = child(pom, "properties");
            if (properties != null && "false".equals(text(properties, "rankgrad.unpublished"))) {
                published.add(text(pom, "artifactId"));
                assertFalse(text(pom, "name").isBlank() || text(pom, "description").isBlank(), module + ": name and description");
            }
        }
        assertTrue(published.contains("rankgrad-serving") && published.size() >= 8, published::toString);
        Set<String> managed = new TreeSet<>();
        Element deps = child(child(pom(ROOT.resolve("bom/pom.xml")), "dependencyManagement"), "dependencies");
        for (Element d : children(deps, "dependency")) {
            managed.add(text(d, "artifactId"));
            assertEquals("${project.version}", text(d, "version"));
        }
        assertEquals(published, managed);
    }

    @Test
    void theExampleDependsOnTheServingArtifactAloneAtThisVersion() throws Exception {
        Element example = pom(ROOT.resolve("examples/pom.xml"));
        assertEquals(null, child(example, "parent"), "examples/ is a project of its own, not a child of rankgrad's build");
        List<Element> deps = children(child(example, "dependencies"), "dependency");
        assertEquals(1, deps.size());
        assertEquals("rankgrad-serving", text(deps.get(0), "artifactId"));
        assertEquals(text(pom(ROOT.resolve("pom.xml")), "version"), text(deps.get(0), "version"));
        List<String> modules = new ArrayList<>();
        for (Element m : children(child(pom(ROOT.resolve("pom.xml")), "modules"), "module")) {
            modules.add(m.getTextContent().strip());
        }
        assertFalse(modules.contains("examples"), "examples/ is not a module of the reactor");
    }

    /** The pom.xml of every reactor module (one folder down, with a parent). */
    private static List<Path> modules() throws IOException {
        try (Stream<Path> dirs = Files.list(ROOT)) {
            return dirs.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile)
                    .filter(p -> !p.getParent().getFileName().toString().matches("bom|examples")).sorted().toList();
        }
    }

    private static Element pom(Path file) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        List<Element> found = parent == null ? List.of() : children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    /** The text of {@code parent}'s child element {@code name}, or "" when there is none. */
    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? "" : e.getTextContent().strip();
    }
}
