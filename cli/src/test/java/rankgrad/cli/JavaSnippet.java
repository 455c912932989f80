package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code java} block made into a compilation unit. A block is compiled as it is when it declares
 * a top-level type; otherwise the HTML comment on the line before its fence says how to wrap it,
 * after its {@code import} lines:
 * <ul>
 *   <li>{@code <!-- java: body(Path trainFile, ...) -->}: the statements of a method with those
 *       parameters, declared {@code throws Exception};</li>
 *   <li>{@code <!-- java: members -->}: the members of a class (methods, nested classes, a
 *       {@code main}).</li>
 * </ul>
 * A unit that declares {@code public static void main(String[] args)} is a program, and is run.
 * {@code <!-- java: file PATH -->} marks a block that shows a source file of the repository
 * (examples/): it must be that file, line for line; it is compiled here but not run, because it
 * needs its arguments (scripts/check-example runs it).
 */
public record JavaSnippet(MarkdownPage.CodeBlock block, String className, String source, int[] blockLine) {
    /** Imports that only the spark module's test class path satisfies: its tests compile these blocks. */
    public static final List<String> SPARK_PACKAGES = List.of("org.apache.spark", "rankgrad.spark");
    private static final Pattern TYPE = Pattern.compile(
            "^(?:public\\s+|final\\s+|abstract\\s+)*(?:class|record|interface|enum)\\s+(\\w+)");
    private static final Pattern BODY = Pattern.compile("body\\((.*)\\)");
    private static final Pattern FILE = Pattern.compile("file (\\S+)");
    private static final Pattern MAIN = Pattern.compile("public\\s+static\\s+void\\s+main\\s*\\(\\s*String\\s*(\\[\\]\\s*\\w+|\\.\\.\\.\\s*\\w+|\\w+\\s*\\[\\])\\s*\\)");

    /**
     * The unit of {@code block}, or empty with the reason in {@code problem} when the block is
     * neither a source file nor marked.
     */
    public static JavaSnippet of(MarkdownPage.CodeBlock block, int serial, StringBuilder problem) {
        List<String> imports = new ArrayList<>();
        List<Integer> importLines = new ArrayList<>();
        List<String> code = new ArrayList<>();
        List<Integer> codeLines = new ArrayList<>();
        for (int i = 0; i < block.lines().size(); i++) {
            String l = block.lines().get(i);
            boolean isImport = l.startsWith("import ") || l.startsWith("package ");
            (isImport ? imports : code).add(l);
            (isImport ? importLines : codeLines).add(i);
        }
        Optional<String> declared = code.stream().map(l -> TYPE.matcher(l)).filter(Matcher::find).map(m -> m.group(1)).findFirst();
        String marker = block.marker();
        String name = "DocSnippet" + serial;
        String open;
        String close;
        if (marker == null || FILE.matcher(marker).matches()) {
            if (declared.isEmpty()) {
                problem.append("a java block that declares no top-level type needs a marker before its fence: "
                        + "<!-- java: body(PARAMETERS) --> or <!-- java: members -->");
                return null;
            }
            name = declared.get();
            open = null;
            close = null;
        } else if (marker.equals("members")) {
            open = "public class " + name + " {";
            close = "}";
        } else {
            Matcher body = BODY.matcher(marker);
            if (!body.matches()) {
                problem.append("unknown marker '" + marker + "' (body(PARAMETERS) or members)");
                return null;
            }
            open = "public class " + name + " { static void snippet(" + body.group(1) + ") throws Exception {";
            close = "}}";
        }
        StringBuilder src = new StringBuilder();
        List<Integer> map = new ArrayList<>();
        for (int i = 0; i < imports.size(); i++) {
            src.append(imports.get(i)).append('\n');
            map.add(importLines.get(i));
        }
        if (open != null) {
            src.append(open).append('\n');
            map.add(-1);
        }
        for (int i = 0; i < code.size(); i++) {
            src.append(code.get(i)).append('\n');
            map.add(codeLines.get(i));
        }
        if (close != null) {
            src.append(close).append('\n');
            map.add(-1);
        }
        return new JavaSnippet(block, name, src.toString(), map.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The java blocks of {@code pages} as units; a block that cannot be made one adds a failure. */
    public static List<JavaSnippet> allIn(List<MarkdownPage> pages, List<String> failures) {
        List<JavaSnippet> snippets = new ArrayList<>();
        int serial = 0;
        for (MarkdownPage page : pages) {
            for (MarkdownPage.CodeBlock b : page.codeBlocks()) {
                if (b.language().equals("java")) {
                    StringBuilder problem = new StringBuilder();
                    JavaSnippet s = of(b, serial++, problem);
                    if (s == null) {
                        failures.add(b.where(-1) + ": " + problem);
                    } else {
                        snippets.add(s);
                    }
                }
            }
        }
        return snippets;
    }

    /** Whether the unit is a program: it declares {@code public static void main(String[])}. */
    public boolean isProgram() {
        return MAIN.matcher(source).find();
    }

    /** The repository file that the block shows ({@code <!-- java: file PATH -->}), if it is marked so. */
    public Optional<String> shownFile() {
        Matcher m = FILE.matcher(block.marker() == null ? "" : block.marker());
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** "page:line" of the unit's (1-based) line, or of the block's fence for a wrapper line. */
    public String where(long unitLine) {
        int i = (int) unitLine - 1;
        return i >= 0 && i < blockLine.length && blockLine[i] >= 0 ? block.where(blockLine[i])
                : block.page().name() + ":" + block.line();
    }

    /** Whether the block imports any package starting with one of {@code prefixes}. */
    public boolean imports(List<String> prefixes) {
        return block.lines().stream().filter(l -> l.startsWith("import "))
                .anyMatch(l -> prefixes.stream().anyMatch(p -> l.replace("import static ", "import ").startsWith("import " + p)));
    }
}
