package rankgrad.testkit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The op catalogue as it is built: every {@link OpCase} filed under the public entry point it
 * exercises, written as {@link OpCases#byEntryPoint()} says, so that a test can compare the entry
 * points covered with those that exist.
 */
final class CaseRegistry {
    private final List<OpCase> cases = new ArrayList<>();
    private final Map<String, List<OpCase>> byEntryPoint = new LinkedHashMap<>();

    /** Files {@code c} under {@code entryPoint}, e.g. {@code "Ops.relu(Var)"}. */
    void add(String entryPoint, OpCase c) {
        cases.add(c);
        byEntryPoint.computeIfAbsent(entryPoint, k -> new ArrayList<>()).add(c);
    }

    /** Adds {@code c}, filed under each of {@code entryPoints} (a case that exercises several). */
    void addCovering(OpCase c, String... entryPoints) {
        cases.add(c);
        for (String entryPoint : entryPoints) {
            byEntryPoint.computeIfAbsent(entryPoint, k -> new ArrayList<>()).add(c);
        }
    }

    /** Every case, in the order added. */
    List<OpCase> cases() {
        return List.copyOf(cases);
    }

    /** The cases of each entry point, entry points in the order first added. */
    Map<String, List<OpCase>> byEntryPoint() {
        Map<String, List<OpCase>> copy = new LinkedHashMap<>();
        byEntryPoint.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return Collections.unmodifiableMap(copy);
    }
}
