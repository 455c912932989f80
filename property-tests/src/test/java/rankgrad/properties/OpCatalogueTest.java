package rankgrad.properties;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.AffineBatchNormRelu;
import rankgrad.testkit.OpCases;

/**
 * The op catalogue is driven by the code, not kept as a list: the public entry points to built-in
 * ops are found by reflection, and each must have a case in {@link OpCases#byEntryPoint()} (which
 * {@link OpGradientProperties} runs through every op-wide law). Adding an op without a case fails
 * here, naming it.
 *
 * <p>The entry points are
 * <ul>
 *   <li>every public static method of {@link Ops} that returns a {@link Var}, each overload on its
 *       own ({@code Ops.add(Var,Var)} and {@code Ops.add(Var,double)} are different code);</li>
 *   <li>every public constructor, public static method returning an op and public static op
 *       constant of each public, concrete {@link Op} class: such a class (a fused training layer,
 *       layer norm, attention) is reached through its own factories. The primitives behind
 *       {@code Ops} are package-private classes (ArchitectureTest holds them so), reached, and
 *       covered, through {@code Ops} alone. Op classes are looked for in the jars or class folders
 *       that hold {@code Ops} and the fused layers ({@link #HOMES}); add a class of any module that
 *       gains op classes.</li>
 * </ul>
 * An entry point counts when a user of the module path can call it: its class and parameter types
 * are in packages their module exports to everyone (read from the module descriptors of the
 * homes and of each parameter type's own module; a jar without one exports all its packages). Names are written as
 * {@link OpCases#byEntryPoint()} says; a name filed there that matches no entry point (a renamed
 * op, a typo) fails too.
 */
class OpCatalogueTest {
    /** A class from each jar or class folder that holds op classes. */
    private static final List<Class<?>> HOMES = List.of(Ops.class, AffineBatchNormRelu.class);

    @Test
    void everyOpEntryPointHasACase() {
        Set<String> missing = new TreeSet<>(entryPoints());
        missing.removeAll(OpCases.byEntryPoint().keySet());
        if (!missing.isEmpty()) {
            throw new AssertionError(missing.size() + " op entry point(s) without a case in OpCases (add one, filed"
                    + " under this name):\n  " + String.join("\n  ", missing));
        }
    }

    @Test
    void everyFiledEntryPointExists() {
        Set<String> unknown = new TreeSet<>(OpCases.byEntryPoint().keySet());
        unknown.removeAll(entryPoints());
        if (!unknown.isEmpty()) {
            throw new AssertionError("OpCases files cases under entry points that do not exist (renamed, removed or"
                    + " misspelt):\n  " + String.join("\n  ", unknown) + "\nentry points: " + entryPoints());
        }
    }

    /**
     * The reflection finds what it should: a scan that found no class, or one that did not leave
     * out the primitives behind {@code Ops} or the factories a module-path user cannot call, would
     * make the first test pass or fail for the wrong reason.
     */
    @Test
    void scanFindsOpsMethodsAndFusedLayerFactoriesButNotPrimitivesBehindOps() {
        Set<String> found = entryPoints();
        for (String expected : List.of("Ops.relu(Var)", "Ops.add(Var,double)", "Ops.concatRows(Var[])",
                "BatchNorm.inference(double)", "AffineBatchNormRelu.of(double,StatisticsSink)", "new LayerNorm(double)")) {
            assertTrue(found.contains(expected), expected + " not among " + found);
        }
        for (String behindOps : List.of("Relu.INSTANCE", "Celu.withAlpha(double)", "MatMul.of(boolean,boolean)")) {
            assertFalse(found.contains(behindOps), behindOps + " is reached through Ops, yet listed: " + found);
        }
        assertTrue(found.contains("AffineBatchNormRelu.inWorkspace(double,StatisticsSink,Workspace,boolean,boolean)"),
                "a factory taking simd's exported Workspace is missing: " + found);
    }

    /** Every entry point, as OpCases files them. */
    private static Set<String> entryPoints() {
        Set<String> names = new TreeSet<>();
        for (Method m : Ops.class.getMethods()) {
            if (m.getDeclaringClass() == Ops.class && Modifier.isStatic(m.getModifiers()) && m.getReturnType() == Var.class) {
                names.add(name(m));
            }
        }
        Set<String> exported = exportedPackages(HOMES);
        for (Class<?> c : opClasses()) {
            if (!visible(c, exported)) {
                continue;
            }
            for (Constructor<?> k : c.getConstructors()) {
                if (visible(k, exported)) {
                    names.add(name(k));
                }
            }
            for (Method m : c.getMethods()) {
                if (m.getDeclaringClass() == c && Modifier.isStatic(m.getModifiers())
                        && Op.class.isAssignableFrom(m.getReturnType()) && visible(m, exported)) {
                    names.add(name(m));
                }
            }
            for (Field f : c.getFields()) {
                if (f.getDeclaringClass() == c && Modifier.isStatic(f.getModifiers()) && Op.class.isAssignableFrom(f.getType())) {
                    names.add(c.getSimpleName() + "." + f.getName());
                }
            }
        }
        return names;
    }

    private static boolean visible(Executable e, Set<String> exported) {
        return Arrays.stream(e.getParameterTypes()).allMatch(t -> visible(t, exported));
    }

    /**
     * Whether a module-path user can name type {@code t}: a primitive, a JDK type, one of a package
     * in {@code exported}, or one its own module exports to everyone.
     */
    private static boolean visible(Class<?> t, Set<String> exported) {
        Class<?> base = t;
        while (base.isArray()) {
            base = base.getComponentType();
        }
        String pkg = base.getPackageName();
        return base.isPrimitive() || pkg.startsWith("java.") || exported.contains(pkg)
                || exportedPackages(List.of(base)).contains(pkg);
    }

    /**
     * The packages the modules holding {@code homes} export to every module (not those exported
     * only to named friends); every package of a home that has no module descriptor. A parameter
     * type of another module (simd's {@code Workspace}, say) is looked up in its own module's.
     */
    private static Set<String> exportedPackages(List<Class<?>> homes) {
        Set<String> exported = new TreeSet<>();
        for (Class<?> home : homes) {
            Path location = location(home);
            try (InputStream in = Files.isDirectory(location) ? descriptorInFolder(location) : descriptorInJar(location)) {
                if (in == null) {
                    classNames(home).forEach(n -> exported.add(n.substring(0, Math.max(0, n.lastIndexOf('.')))));
                } else {
                    ModuleDescriptor.read(in).exports().stream().filter(x -> !x.isQualified())
                            .forEach(x -> exported.add(x.source()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(location + ": " + e.getMessage(), e);
            }
        }
        return exported;
    }

    private static InputStream descriptorInFolder(Path folder) throws IOException {
        Path file = folder.resolve("module-info.class");
        return Files.isRegularFile(file) ? Files.newInputStream(file) : null;
    }

    private static InputStream descriptorInJar(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            JarEntry entry = file.getJarEntry("module-info.class");
            return entry == null ? null : new ByteArrayInputStream(file.getInputStream(entry).readAllBytes());
        }
    }

    private static String name(Executable e) {
        String parameters = Arrays.stream(e.getParameterTypes()).map(Class::getSimpleName).collect(Collectors.joining(","));
        return e instanceof Constructor<?> ? "new " + e.getDeclaringClass().getSimpleName() + "(" + parameters + ")"
                : e.getDeclaringClass().getSimpleName() + "." + e.getName() + "(" + parameters + ")";
    }

    /** The public, concrete classes implementing {@link Op} in the jars or folders of {@link #HOMES}. */
    private static Set<Class<?>> opClasses() {
        Set<Class<?>> found = new LinkedHashSet<>();
        for (Class<?> home : HOMES) {
            for (String name : classNames(home)) {
                Class<?> c = load(name);
                int mod = c.getModifiers();
                if (Op.class.isAssignableFrom(c) && Modifier.isPublic(mod) && !c.isInterface() && !Modifier.isAbstract(mod)) {
                    found.add(c);
                }
            }
        }
        return found;
    }

    /** The binary names of the classes in the jar or class folder {@code home} was loaded from. */
    private static List<String> classNames(Class<?> home) {
        Path location = location(home);
        List<String> entries = new ArrayList<>();
        try {
            if (Files.isDirectory(location)) {
                try (Stream<Path> files = Files.walk(location)) {
                    files.map(p -> location.relativize(p).toString().replace('\\', '/')).forEach(entries::add);
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements();) {
                        entries.add(e.nextElement().getName());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(location + ": " + e.getMessage(), e);
        }
        return entries.stream()
                .filter(n -> n.endsWith(".class") && !n.endsWith("module-info.class") && !n.endsWith("package-info.class")
                        && !n.startsWith("META-INF/"))
                .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                .toList();
    }

    /** The jar or class folder {@code home} was loaded from. */
    private static Path location(Class<?> home) {
        try {
            return Path.of(home.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + home.getName() + ": " + e.getMessage(), e);
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, OpCatalogueTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " is listed in its jar but cannot be loaded", e);
        }
    }
}
