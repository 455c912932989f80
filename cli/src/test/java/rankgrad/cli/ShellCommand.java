package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One command of a shell snippet: its words after quoting, comments, redirections and leading
 * variable assignments are taken off. A line ending in a backslash continues on the next; {@code
 * &&}, {@code ||}, {@code ;} and {@code |} separate commands. In a {@code text} block (a transcript)
 * only the lines after a {@code $ } prompt are commands.
 */
public record ShellCommand(String where, List<String> words) {
    private static final Set<String> SHELL_LANGUAGES = Set.of("bash", "sh", "shell", "console");

    /** Whether blocks of this language hold commands (all lines, or prompted lines of a transcript). */
    public static boolean holdsCommands(String language) {
        return SHELL_LANGUAGES.contains(language) || language.equals("text");
    }

    /** The commands of a shell block, or of the prompted lines of a text block. */
    public static List<ShellCommand> of(MarkdownPage.CodeBlock block) {
        boolean transcript = block.language().equals("text");
        List<ShellCommand> commands = new ArrayList<>();
        List<String> lines = block.lines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (transcript) {
                if (!line.startsWith("$ ")) {
                    continue;
                }
                line = line.substring(2);
            }
            int first = i;
            StringBuilder joined = new StringBuilder();
            while (line.endsWith("\\") && i + 1 < lines.size()) {
                joined.append(line, 0, line.length() - 1).append(' ');
                line = lines.get(++i);
            }
            joined.append(line);
            for (List<String> words : split(joined.toString())) {
                commands.add(new ShellCommand(block.where(first), words));
            }
        }
        return commands;
    }

    /** The program: the first word. */
    public String program() {
        return words.get(0);
    }

    private static List<List<String>> split(String line) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        boolean redirect = false;
        char quote = 0;
        for (int i = 0; i <= line.length(); i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '#' && !inWord) {
                break;
            } else if (c == '>' || c == '<') {
                // A redirection: its target is not an argument (2>&1 included).
                if (inWord && word.toString().matches("\\d")) {
                    word.setLength(0);
                    inWord = false;
                }
                redirect = true;
                while (i + 1 < line.length() && (line.charAt(i + 1) == '>' || line.charAt(i + 1) == '&')) {
                    i++;
                }
            } else if (c == ' ' || c == '\t' || c == ';' || c == '|' || c == '&') {
                if (inWord) {
                    if (!redirect) {
                        words.add(word.toString());
                    }
                    redirect = false;
                    word.setLength(0);
                    inWord = false;
                }
                if (c != ' ' && c != '\t') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == c) {
                        i++;
                    }
                    addCommand(commands, words);
                    words = new ArrayList<>();
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        addCommand(commands, words);
        return commands;
    }

    private static void addCommand(List<List<String>> commands, List<String> words) {
        int start = 0;
        while (start < words.size() && (words.get(start).matches("[A-Za-z_][A-Za-z0-9_]*=.*") || words.get(start).equals("time"))) {
            start++;
        }
        if (start < words.size()) {
            commands.add(List.copyOf(words.subList(start, words.size())));
        }
    }
}
