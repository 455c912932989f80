package rankgrad.ltr.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void roundTripsNestedValuesAndFloatsExactly() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "R4.L \"quoted\"\n");
        m.put("weights", new float[] {0.1f, -3.4028235e38f, 1.4e-45f, 0f});
        m.put("layers", List.of(Map.of("units", 100), Map.of("units", 1)));
        m.put("ok", true);
        m.put("none", null);
        m.put("ratio", 0.25);
        String text = Json.write(m);
        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) Json.parse(text);
        assertEquals("R4.L \"quoted\"\n", back.get("name"));
        List<?> w = (List<?>) back.get("weights");
        assertEquals(0.1f, ((Double) w.get(0)).floatValue());
        assertEquals(-3.4028235e38f, ((Double) w.get(1)).floatValue());
        assertEquals(1.4e-45f, ((Double) w.get(2)).floatValue());
        assertEquals(100.0, ((Map<?, ?>) ((List<?>) back.get("layers")).get(0)).get("units"));
        assertEquals(Boolean.TRUE, back.get("ok"));
        assertEquals(0.25, back.get("ratio"));
        assertEquals(text, Json.write(m), "writing is deterministic");
    }

    @Test
    void errorsGiveLineAndColumn() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("{\n  \"a\": [1, 2,]\n}"));
        assertEquals("JSON line 2, column 14: unexpected character ']'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1, \"a\": 2}"));
        assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of("x", Double.NaN)));
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("[".repeat(100_000)));
        assertEquals("JSON line 1, column 257: arrays and objects nested more than 256 deep (a damaged file?)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":".repeat(100_000)));
        String deepest = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        assertEquals(List.of(), unwrap(Json.parse(deepest), Json.MAX_DEPTH - 1), "the limit itself is read");
    }

    @Test
    void aBadUnicodeEscapeIsAParseError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse("\"\\u12g4\""));
        assertEquals("JSON line 1, column 4: bad \\u escape '12g4'", e.getMessage());
    }

    private static Object unwrap(Object v, int levels) {
        for (int i = 0; i < levels; i++) {
            v = ((List<?>) v).get(0);
        }
        return v;
    }
}
