package rankgrad.ltr.io;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader and writer for model files and exports, so that {@code ltr} needs nothing
 * beyond the JDK. Values map to Java as: object - {@code Map<String, Object>} (insertion-ordered),
 * array - {@code List<Object>}, number - {@code Double} (or, when writing, any {@code Number}),
 * string, boolean, null.
 *
 * <p>Writing is deterministic: keys in map order, floats in the shortest form that reads back to
 * the same float ({@link Float#toString}), doubles likewise; non-finite numbers are refused,
 * since JSON has no representation for them. Parse errors give line and column; nesting deeper
 * than {@link #MAX_DEPTH} is an error too (the parser recurses, and a damaged file of many
 * {@code [} must not overflow the stack).
 */
public final class Json {
    /** The deepest nesting of arrays and objects read; model files and checkpoints use under 10. */
    public static final int MAX_DEPTH = 256;

    private final String text;
    private int pos;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /** Parses one JSON value (with nothing but whitespace after it). */
    public static Object parse(String text) {
        Json p = new Json(text);
        p.skipSpace();
        Object v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the JSON value");
        }
        return v;
    }

    /** Writes {@code value} as indented JSON (2 spaces; numeric arrays on one line). */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(sb, s);
        } else if (v instanceof Boolean b) {
            sb.append(b);
        } else if (v instanceof Float f) {
            requireFinite(f, f);
            sb.append(f);
        } else if (v instanceof Double || v instanceof java.math.BigDecimal) {
            double d = ((Number) v).doubleValue();
            requireFinite(d, v);
            sb.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d));
        } else if (v instanceof Number n) {
            sb.append(n.longValue());
        } else if (v instanceof float[] fs) {
            sb.append('[');
            for (int i = 0; i < fs.length; i++) {
                requireFinite(fs[i], "array element " + i);
                sb.append(i == 0 ? "" : ", ").append(fs[i]);
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            sb.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append("  ".repeat(indent + 1));
                quote(sb, String.valueOf(e.getKey()));
                sb.append(": ");
                write(sb, e.getValue(), indent + 1);
                sb.append(++i < m.size() ? ",\n" : "\n");
            }
            sb.append("  ".repeat(indent)).append('}');
        } else if (v instanceof List<?> l) {
            boolean flat = l.stream().allMatch(x -> x instanceof Number || x instanceof String || x instanceof float[]);
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (!flat) {
                    sb.append(i == 0 ? "\n" : ",\n").append("  ".repeat(indent + 1));
                } else if (i > 0) {
                    sb.append(", ");
                }
                write(sb, l.get(i), indent + 1);
            }
            if (!flat && !l.isEmpty()) {
                sb.append('\n').append("  ".repeat(indent));
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
        }
    }

    private static void requireFinite(double d, Object what) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("JSON cannot hold the non-finite number " + d + " (" + what + ")");
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek() == '}') {
            pos++;
            depth--;
            return map;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a quoted key");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (map.put(key, value()) != null) {
                throw error("duplicate key \"" + key + "\"");
            }
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                depth--;
                return map;
            }
        }
    }

    private List<Object> array() {
        enter();
        List<Object> list = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek() == ']') {
            pos++;
            depth--;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value());
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                depth--;
                return list;
            }
        }
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("arrays and objects nested more than " + MAX_DEPTH + " deep (a damaged file?)");
        }
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (pos >= text.length()) {
                    throw error("unterminated escape");
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw error("truncated \\u escape");
                        }
                        String hex = text.substring(pos, pos + 4);
                        if (!hex.chars().allMatch(h -> Character.digit(h, 16) >= 0 && h < 0x80)) {
                            throw error("bad \\u escape '" + hex + "'");
                        }
                        sb.append((char) Integer.parseInt(hex, 16));
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            } else {
                sb.append(c);
            }
        }
    }

    private Double number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String s = text.substring(start, pos);
        try {
            return Double.valueOf(s);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("bad number '" + s + "'");
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected token");
        }
        pos += word.length();
        return value;
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of input");
        }
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private IllegalArgumentException error(String problem) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new IllegalArgumentException("JSON line " + line + ", column " + col + ": " + problem);
    }
}
