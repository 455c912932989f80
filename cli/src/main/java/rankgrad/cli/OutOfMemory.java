package rankgrad.cli;

import java.util.Locale;

/** The one line a command prints instead of an {@link OutOfMemoryError}'s trace. */
final class OutOfMemory {
    private OutOfMemory() {
    }

    /** "out of memory (...) with a heap of at most 4.0 GB; raise it: ..." */
    static String describe(OutOfMemoryError e) {
        long max = Runtime.getRuntime().maxMemory();
        String heap = max == Long.MAX_VALUE ? "no set limit" : max >= 1e9 ? String.format(Locale.ROOT,
                "a heap of at most %.1f GB", max / 1e9) : String.format(Locale.ROOT, "a heap of at most %.0f MB", max / 1e6);
        String what = e.getMessage() == null ? "" : " (" + e.getMessage() + ")";
        return "out of memory" + what + " with " + heap + "; raise the heap, e.g. RANKGRAD_JAVA_OPTS=-Xmx"
                + suggested(max) + " ./rankgrad ... (or java -Xmx" + suggested(max) + " -jar ...), or give the command less"
                + " data at once";
    }

    /** Twice the current limit, in whole gigabytes (at least 2g). */
    private static String suggested(long max) {
        long gb = max == Long.MAX_VALUE ? 8 : Math.max(2, (2 * max + (1L << 30) - 1) >> 30);
        return gb + "g";
    }
}
