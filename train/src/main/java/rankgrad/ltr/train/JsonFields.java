package rankgrad.ltr.train;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Typed reads of one parsed JSON object ({@link rankgrad.ltr.io.Json}'s maps), for the checkpoint:
 * each getter checks the value's type and range and otherwise throws
 * {@link IllegalArgumentException} naming the field by its dotted path.
 */
final class JsonFields {
    private final Map<String, Object> values;
    private final String path;

    private JsonFields(Map<String, Object> values, String path) {
        this.values = values;
        this.path = path;
    }

    /** The top-level value of a document, which must be an object. */
    @SuppressWarnings("unchecked")
    static JsonFields root(Object parsed) {
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the top level is not a JSON object");
        }
        return new JsonFields((Map<String, Object>) m, "");
    }

    boolean has(String key) {
        return values.get(key) != null;
    }

    String string(String key) {
        if (!(values.get(key) instanceof String s)) {
            throw bad(key, "a string");
        }
        return s;
    }

    /** A string, or null where the field is absent or null. */
    String stringOrNull(String key) {
        return has(key) ? string(key) : null;
    }

    boolean bool(String key) {
        if (!(values.get(key) instanceof Boolean b)) {
            throw bad(key, "true or false");
        }
        return b;
    }

    double number(String key) {
        if (!(values.get(key) instanceof Double d)) {
            throw bad(key, "a number");
        }
        return d;
    }

    /** A number, or {@code absent} where the field is absent or null. */
    double numberOr(String key, double absent) {
        return has(key) ? number(key) : absent;
    }

    /** A whole number in [min, max]. */
    long integer(String key, long min, long max) {
        if (!(values.get(key) instanceof Double d) || d != Math.rint(d) || d < min || d > max) {
            throw bad(key, "a whole number " + (max >= Integer.MAX_VALUE ? ">= " + min : "from " + min + " to " + max));
        }
        return d.longValue();
    }

    int integer(String key) {
        return (int) integer(key, 0, Integer.MAX_VALUE);
    }

    @SuppressWarnings("unchecked")
    JsonFields object(String key) {
        if (!(values.get(key) instanceof Map<?, ?> m)) {
            throw bad(key, "an object");
        }
        return new JsonFields((Map<String, Object>) m, where(key) + ".");
    }

    /** The raw map of an object field (for readers that take maps, such as model-file tensors). */
    @SuppressWarnings("unchecked")
    Map<String, Object> raw(String key) {
        if (!(values.get(key) instanceof Map<?, ?> m)) {
            throw bad(key, "an object");
        }
        return (Map<String, Object>) m;
    }

    /** An array of objects. */
    @SuppressWarnings("unchecked")
    List<JsonFields> objects(String key) {
        if (!(values.get(key) instanceof List<?> l)) {
            throw bad(key, "an array");
        }
        List<JsonFields> out = new ArrayList<>(l.size());
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(where(key) + "[" + i + "] is not an object");
            }
            out.add(new JsonFields((Map<String, Object>) m, where(key) + "[" + i + "]."));
        }
        return out;
    }

    /** The keys of this object, in file order. */
    Iterable<String> keys() {
        return values.keySet();
    }

    private String where(String key) {
        return path + key;
    }

    private IllegalArgumentException bad(String key, String expected) {
        Object v = values.get(key);
        String found = v instanceof Map<?, ?> ? "an object" : v instanceof List<?> ? "an array"
                : v instanceof String str ? "\"" + (str.length() > 40 ? str.substring(0, 40) + "..." : str) + "\""
                : String.valueOf(v);
        return new IllegalArgumentException("\"" + where(key) + "\" is " + (v == null ? "missing" : found + ", not "
                + expected));
    }
}
