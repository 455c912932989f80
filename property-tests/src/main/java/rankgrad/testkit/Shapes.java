package rankgrad.testkit;

/** Shorthands for the input shapes of the op catalogue's cases. */
final class Shapes {
    private Shapes() {
    }

    /** The shapes of a case's inputs, one array per input. */
    static int[][] shapes(int[]... s) {
        return s;
    }

    /** A rows x cols matrix. */
    static int[] m(int rows, int cols) {
        return new int[] {rows, cols};
    }

    /** A vector of n elements. */
    static int[] v(int n) {
        return new int[] {n};
    }

    /** A scalar. */
    static int[] s() {
        return new int[0];
    }
}
