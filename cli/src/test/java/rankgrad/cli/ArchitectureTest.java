package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The floors' rules of docs/architecture.md, checked on the repository's sources and poms (no
 * framework: imports, module descriptors and pom dependencies are read as text, exported
 * signatures by reflection):
 * <ul>
 *   <li>each core module depends only on core modules below it, and on nothing but the JDK;</li>
 *   <li>no module's main code imports a package another module does not export to it (a qualified
 *       export in that module's {@code module-info.java} is the documented exception; test code
 *       may: the testkit's property tests check the SIMD and pair kernels white-box);</li>
 *   <li>no public or protected member of an exported package names a type of a package that is
 *       not exported;</li>
 *   <li>no import cycle between packages, except the engine's catalogue: {@code Ops} takes its op
 *       instances from {@code ops.Primitives}, and the op classes implement {@code Op};</li>
 *   <li>the op classes behind {@code Ops} are package-private: {@code ops.Primitives} is the one
 *       public class of their package (docs/design.md §1).</li>
 * </ul>
 * A core module's sources may also be imported through a tool module's; the rules are the same.
 */
class ArchitectureTest {
    /** The core floors, bottom to top (the parent pom lists them in this order). */
    static final List<String> CORE = List.of("simd", "autodiff", "nn", "ranking", "serving", "letor", "train", "eval");
    /** The one package cycle the design keeps (docs/design.md §5: the op catalogue and its Primitives). */
    static final Set<String> ALLOWED_CYCLE = Set.of("rankgrad.autodiff", "rankgrad.autodiff.ops");

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(rankgrad(?:\\.[a-z]\\w*)+)\\.[A-Z]", Pattern.MULTILINE);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern EXPORT = Pattern.compile("exports\\s+([\\w.]+)(?:\\s+to\\s+([\\w.,\\s]+))?;");
    private static final Pattern DEPENDENCY = Pattern.compile(
            "<dependency>\\s*<groupId>io\\.github\\.rankgrad</groupId>\\s*<artifactId>rankgrad-([\\w-]+?)(?:_2\\.13)?</artifactId>");
    private static final Pattern ANY_DEPENDENCY = Pattern.compile("<dependency>\\s*<groupId>([^<]+)</groupId>(.*?)</dependency>", Pattern.DOTALL);

    /** One Maven module: its folder, JPMS name, packages by source set and exports (null: everyone). */
    record Module(String dir, String name, Map<String, Set<String>> exports, boolean descriptor) {
        boolean exportsTo(String pkg, String reader) {
            if (!descriptor) {
                return !pkg.contains(".internal");
            }
            if (!exports.containsKey(pkg)) {
                return false;
            }
            Set<String> to = exports.get(pkg);
            return to == null || to.contains(reader);
        }
    }

    @Test
    void coreModulesDependOnlyOnTheJdkAndOnFloorsBelowThem() throws IOException {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < CORE.size(); i++) {
            String pom = Files.readString(ROOT.resolve(CORE.get(i)).resolve("pom.xml"));
            Matcher m = ANY_DEPENDENCY.matcher(pom);
            while (m.find()) {
                if (!m.group(1).equals("io.github.rankgrad") && !m.group(2).contains("<scope>test</scope>")) {
                    problems.add(CORE.get(i) + " depends on " + m.group(1) + m.group(2).replaceAll("\\s+", " "));
                }
            }
            Matcher d = DEPENDENCY.matcher(pom);
            while (d.find()) {
                int below = CORE.indexOf(d.group(1));
                if (below < 0 || below >= i) {
                    problems.add(CORE.get(i) + " depends on " + d.group(1) + ", which is not a floor below it");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theParentPomListsTheFloorsBottomToTop() throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        List<String> listed = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([\\w-]+)</module>").matcher(pom);
        while (m.find()) {
            if (CORE.contains(m.group(1))) {
                listed.add(m.group(1));
            }
        }
        assertEquals(CORE, listed);
    }

    @Test
    void noModuleImportsAPackageThatIsNotExportedToIt() throws IOException {
        Map<String, Module> owner = packageOwners();
        List<String> problems = new ArrayList<>();
        for (Module reader : modules().values()) {
            forEachSource(reader.dir(), "main", (file, source) -> {
                Matcher m = IMPORT.matcher(source);
                while (m.find()) {
                    Module from = owner.get(m.group(1));
                    if (from != null && !from.dir().equals(reader.dir()) && !from.exportsTo(m.group(1), reader.name())) {
                        problems.add(ROOT.relativize(file) + " imports " + m.group(1) + " of " + from.dir()
                                + ", which does not export it to " + reader.name());
                    }
                }
            });
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void noExportedSignatureNamesATypeOfAPackageThatIsNotExported() throws Exception {
        Map<String, Module> owner = packageOwners();
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (String dir : CORE) {
            Module module = modules().get(dir);
            for (Map.Entry<String, Set<String>> export : module.exports().entrySet()) {
                if (export.getValue() != null) {
                    continue;
                }
                for (Class<?> c : classesOf(dir, export.getKey())) {
                    if (!Modifier.isPublic(c.getModifiers())) {
                        continue;
                    }
                    checked++;
                    List<Type> named = new ArrayList<>();
                    named.add(c.getGenericSuperclass());
                    named.addAll(List.of(c.getGenericInterfaces()));
                    for (Method m : c.getDeclaredMethods()) {
                        if (visible(m.getModifiers()) && !m.isSynthetic()) {
                            named.add(m.getGenericReturnType());
                            addParameters(m, named);
                        }
                    }
                    for (Constructor<?> k : c.getDeclaredConstructors()) {
                        if (visible(k.getModifiers())) {
                            addParameters(k, named);
                        }
                    }
                    for (Field f : c.getDeclaredFields()) {
                        if (visible(f.getModifiers())) {
                            named.add(f.getGenericType());
                        }
                    }
                    for (Type t : named) {
                        for (Class<?> used : rawTypes(t)) {
                            String pkg = used.getPackageName();
                            Module from = owner.get(pkg);
                            if (from != null && !from.exportsTo(pkg, "everyone")) {
                                problems.add(c.getName() + " names " + used.getName());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "only " + checked + " exported classes found: are the modules compiled?");
        assertEquals(List.of(), new ArrayList<>(new TreeSet<>(problems)));
    }

    @Test
    void noPackageCyclesButTheOpCatalogue() throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Module module : modules().values()) {
            forEachSource(module.dir(), "main", (file, source) -> {
                String pkg = packageOf(source);
                Set<String> out = graph.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = IMPORT.matcher(source);
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        out.add(m.group(1));
                    }
                }
            });
        }
        List<Set<String>> cycles = new ArrayList<>();
        for (Set<String> component : stronglyConnected(graph)) {
            if (component.size() > 1 && !component.equals(ALLOWED_CYCLE)) {
                cycles.add(component);
            }
        }
        assertEquals(List.of(), cycles);
    }

    @Test
    void theOpClassesBehindOpsArePackagePrivate() throws Exception {
        List<Class<?>> classes = classesOf("autodiff", "rankgrad.autodiff.ops").stream()
                .filter(c -> c.getEnclosingClass() == null).toList();
        long ops = classes.stream().filter(c -> rankgrad.autodiff.Op.class.isAssignableFrom(c)).count();
        assertTrue(ops > 20, "only " + ops + " op classes found in rankgrad.autodiff.ops: is autodiff compiled?");
        List<String> open = classes.stream().filter(c -> Modifier.isPublic(c.getModifiers())).map(Class::getSimpleName)
                .sorted().toList();
        assertEquals(List.of("Primitives"), open, "public classes of rankgrad.autodiff.ops (reach ops through Ops)");
    }

    @Test
    void theRulesFindAForbiddenImport() {
        // The rules' own check: a tool importing the CPU backend's package, and a floor importing one above it.
        Map<String, Module> owner = packageOwners();
        Module ranking = owner.get("rankgrad.ltr.internal.pairwise");
        assertEquals("ranking", ranking.dir());
        assertTrue(!ranking.exportsTo("rankgrad.ltr.internal.pairwise", "rankgrad.benchmarks"));
        assertTrue(ranking.exportsTo("rankgrad.ltr.loss", "rankgrad.benchmarks"));
        assertTrue(owner.get("rankgrad.simd.internal").exportsTo("rankgrad.simd.internal", "rankgrad.ranking"));
        assertTrue(!owner.get("rankgrad.simd.internal").exportsTo("rankgrad.simd.internal", "rankgrad.cli"));
        Map<String, Set<String>> cyclic = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"));
        assertEquals(List.of(Set.of("a", "b", "c")), stronglyConnected(cyclic).stream().filter(s -> s.size() > 1).toList());
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void addParameters(Executable e, List<Type> named) {
        named.addAll(List.of(e.getGenericParameterTypes()));
        named.addAll(List.of(e.getGenericExceptionTypes()));
    }

    private static List<Class<?>> rawTypes(Type t) {
        List<Class<?>> out = new ArrayList<>();
        Deque<Type> todo = new ArrayDeque<>();
        if (t != null) {
            todo.add(t);
        }
        while (!todo.isEmpty()) {
            Type x = todo.pop();
            if (x instanceof Class<?> c) {
                out.add(c.isArray() ? c.componentType() : c);
            } else if (x instanceof ParameterizedType p) {
                todo.add(p.getRawType());
                todo.addAll(List.of(p.getActualTypeArguments()));
            } else if (x instanceof GenericArrayType a) {
                todo.add(a.getGenericComponentType());
            } else if (x instanceof WildcardType w) {
                todo.addAll(List.of(w.getUpperBounds()));
                todo.addAll(List.of(w.getLowerBounds()));
            }
        }
        return out;
    }

    private static List<Class<?>> classesOf(String dir, String pkg) throws ClassNotFoundException, IOException {
        Path folder = ROOT.resolve(dir).resolve("target/classes").resolve(pkg.replace('.', '/'));
        List<Class<?>> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                String simple = f.getFileName().toString().replace(".class", "");
                if (!simple.equals("package-info")) {
                    out.add(Class.forName(pkg + "." + simple, false, ArchitectureTest.class.getClassLoader()));
                }
            }
        }
        return out;
    }

    /** Tarjan's strongly connected components. */
    static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String v : new TreeSet<>(graph.keySet())) {
            if (!index.containsKey(v)) {
                connect(v, graph, index, low, stack, onStack, out);
            }
        }
        return out;
    }

    private static void connect(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        onStack.add(v);
        for (String w : graph.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, graph, index, low, stack, onStack, out);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            out.add(component);
        }
    }

    /** Every module of the parent pom, by folder. */
    static Map<String, Module> modules() {
        try {
            Map<String, Module> out = new LinkedHashMap<>();
            String pom = Files.readString(ROOT.resolve("pom.xml"));
            Matcher m = Pattern.compile("<module>([\\w-]+)</module>").matcher(pom);
            while (m.find()) {
                String dir = m.group(1);
                Path descriptor = ROOT.resolve(dir).resolve("src/main/java/module-info.java");
                Map<String, Set<String>> exports = new TreeMap<>();
                String name;
                if (Files.exists(descriptor)) {
                    String text = Files.readString(descriptor).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
                    Matcher n = Pattern.compile("module\\s+([\\w.]+)").matcher(text);
                    assertTrue(n.find(), descriptor.toString());
                    name = n.group(1);
                    Matcher e = EXPORT.matcher(text);
                    while (e.find()) {
                        exports.put(e.group(1), e.group(2) == null ? null : Set.of(e.group(2).trim().split("\\s*,\\s*")));
                    }
                } else {
                    Matcher n = Pattern.compile("<rankgrad\\.module\\.name>([\\w.]+)<").matcher(Files.readString(ROOT.resolve(dir).resolve("pom.xml")));
                    name = n.find() ? n.group(1) : "rankgrad." + dir;
                }
                out.put(dir, new Module(dir, name, exports, Files.exists(descriptor)));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The module whose main sources hold each package. */
    static Map<String, Module> packageOwners() {
        Map<String, Module> owner = new HashMap<>();
        for (Module module : modules().values()) {
            forEachSource(module.dir(), "main", (file, source) -> {
                Module before = owner.put(packageOf(source), module);
                if (before != null && before != module) {
                    throw new AssertionError("package " + packageOf(source) + " is split between " + before.dir()
                            + " and " + module.dir());
                }
            });
        }
        return owner;
    }

    private interface SourceVisitor {
        void visit(Path file, String source);
    }

    private static void forEachSource(String dir, String set, SourceVisitor visitor) {
        Path root = ROOT.resolve(dir).resolve("src").resolve(set).resolve("java");
        if (!Files.isDirectory(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(f);
                if (!f.getFileName().toString().equals("module-info.java")) {
                    visitor.visit(f, source);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String packageOf(String source) {
        Matcher m = PACKAGE.matcher(source);
        return m.find() ? m.group(1) : "";
    }
}
