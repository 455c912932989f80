package rankgrad.ltr.rank;

/**
 * A sorting network on m wires as a list of comparators in execution order, sorting ascending
 * (wire 0 receives the minimum), exactly as the {@code diffsort} package builds them (Petersen et
 * al. 2021, Sec. 3): comparator c reads wires {@code first(c)} and {@code second(c)}, and puts the
 * minimum on {@code first(c)} unless {@link #minToSecond(int)}. Comparators that diffsort keeps
 * as identities (the corner wires of odd-even layers, the padded wires of a bitonic network for m
 * not a power of 2) are left out: they change neither a value nor a gradient.
 *
 * <ul>
 *   <li>{@link #oddEven(int)}: m layers of neighbour comparators (i, i + 1), i even in even layers
 *       and odd in odd layers: m (m - 1) / 2 comparators.</li>
 *   <li>{@link #bitonic(int)}: Batcher's bitonic network on 2^ceil(log2 m) wires whose lowest
 *       2^ceil(log2 m) - m wires are dropped: about (m/4) log2 m (log2 m + 1) comparators.</li>
 * </ul>
 *
 * <p>Thread-safety: immutable.
 */
public final class SortingNetwork {
    /** The two kinds of network. */
    public enum Kind {
        ODD_EVEN("oddeven"), BITONIC("bitonic");

        private final String key;

        Kind(String key) {
            this.key = key;
        }

        /** The name in the loss registry: "oddeven" or "bitonic". */
        public String key() {
            return key;
        }
    }

    private final Kind kind;
    private final int wires;
    private final int[] first;
    private final int[] second;
    private final boolean[] minToSecond;
    private final int[] output;

    private SortingNetwork(Kind kind, int wires, int[] first, int[] second, boolean[] minToSecond, int[] output) {
        this.kind = kind;
        this.wires = wires;
        this.first = first;
        this.second = second;
        this.minToSecond = minToSecond;
        this.output = output;
    }

    /** The network of {@code kind} on {@code m} &gt;= 1 wires. */
    public static SortingNetwork of(Kind kind, int m) {
        return kind == Kind.ODD_EVEN ? oddEven(m) : bitonic(m);
    }

    /** Odd-even transposition sort on m &gt;= 1 wires (diffsort's {@code odd_even_network}). */
    public static SortingNetwork oddEven(int m) {
        requireWires(m);
        int count = m * (m - 1) / 2;
        int[] a = new int[count];
        int[] b = new int[count];
        int c = 0;
        for (int layer = 0; layer < m; layer++) {
            for (int i = layer % 2; i < m - 1; i += 2) {
                a[c] = i;
                b[c] = i + 1;
                c++;
            }
        }
        int[] identity = new int[m];
        for (int r = 0; r < m; r++) {
            identity[r] = r;
        }
        return new SortingNetwork(Kind.ODD_EVEN, m, a, b, new boolean[c], identity);
    }

    /**
     * Bitonic sort on m &gt;= 1 wires: diffsort's {@code bitonic_network} on 2^ceil(log2 m) wires
     * whose lowest 2^ceil(log2 m) - m wires are padding. diffsort makes every comparator between a
     * padding wire and a real wire an identity; that is right only where the comparator sends its
     * minimum to the padding wire, and for some m (22, for one) its network then fails to sort. Here
     * the padding holds minus infinity: such a comparator moves the real value to the max wire (a
     * fixed relabelling of wires, no relaxation), so the network sorts for every m, and equals
     * diffsort's wherever diffsort's sorts (docs/losses.md).
     */
    public static SortingNetwork bitonic(int m) {
        requireWires(m);
        int blocks = 32 - Integer.numberOfLeadingZeros(m - 1);
        int padded = 1 << blocks;
        int dropped = padded - m;
        int capacity = (padded / 2) * blocks * (blocks + 1) / 2;
        int[] a = new int[capacity];
        int[] b = new int[capacity];
        boolean[] flip = new boolean[capacity];
        // slot[w]: the real value (0 .. m-1) on logical wire w, or -1 for padding (minus infinity).
        int[] slot = new int[padded];
        for (int w = 0; w < padded; w++) {
            slot[w] = w < dropped ? -1 : w - dropped;
        }
        int c = 0;
        for (int block = 0; block < blocks; block++) {
            for (int layer = 0; layer <= block; layer++) {
                int half = 1 << (block - layer);
                for (int i = 0; i < padded; i += 2 * half) {
                    for (int j = 0; j < half; j++) {
                        int lo = i + j;
                        int hi = lo + half;
                        boolean descending = ((lo >> (block + 1)) & 1) == 1;
                        if (slot[lo] >= 0 && slot[hi] >= 0) {
                            a[c] = slot[lo];
                            b[c] = slot[hi];
                            flip[c] = descending;
                            c++;
                        } else if ((slot[lo] >= 0) != (slot[hi] >= 0)) {
                            int minWire = descending ? hi : lo;
                            if (slot[minWire] >= 0) {
                                int t = slot[lo];
                                slot[lo] = slot[hi];
                                slot[hi] = t;
                            }
                        }
                    }
                }
            }
        }
        int[] out = new int[m];
        for (int r = 0; r < m; r++) {
            out[r] = slot[dropped + r];
        }
        return new SortingNetwork(Kind.BITONIC, m, java.util.Arrays.copyOf(a, c), java.util.Arrays.copyOf(b, c),
                java.util.Arrays.copyOf(flip, c), out);
    }

    private static void requireWires(int m) {
        if (m < 1) {
            throw new IllegalArgumentException("a sorting network needs at least one wire, got " + m);
        }
    }

    public Kind kind() {
        return kind;
    }

    /** The number of wires m. */
    public int wires() {
        return wires;
    }

    /** The number of comparators. */
    public int size() {
        return first.length;
    }

    /** The first wire comparator c reads (a in diffsort's notation). */
    public int first(int c) {
        return first[c];
    }

    /** The second wire comparator c reads (b). */
    public int second(int c) {
        return second[c];
    }

    /** The wire that holds the r-th smallest value at the end (r = 0 .. m-1); r itself except where bitonic padding relabels wires. */
    public int output(int r) {
        return output[r];
    }

    /** Whether comparator c puts the minimum on its second wire (the descending half-cleaners of bitonic). */
    public boolean minToSecond(int c) {
        return minToSecond[c];
    }
}
