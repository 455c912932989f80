package rankgrad.ltr.letor;

import java.nio.charset.StandardCharsets;

/**
 * Numbers of LETOR text parsed straight from a file's bytes, without a String per token: ASCII
 * digits only (a non-ASCII digit such as U+0663 is not a number), and every float rounded exactly
 * as {@link Float#parseFloat} rounds it.
 *
 * <p>Grammar of a float: {@code [+-]? (D+ ('.' D*)? | '.' D+) ([eE] [+-]? D+)?} with D an ASCII
 * digit; no NaN, Infinity, hexadecimal or type suffix.
 *
 * <p>Fast path: a token with at most 9 significant digits M and a decimal scale n in [0, 10]
 * (value d = M / 10^n, as in {@code 0.43607816}) is computed as {@code (float) (M / 10^n)} in
 * double. M and 10^n are exact doubles, so the quotient is d correctly rounded, within a relative
 * 2^-53 of d. Rounding that double to float gives the float nearest d unless a float32 rounding
 * midpoint m = K 2^q (K odd, 25 bits) lies strictly closer to d than that. It cannot: if
 * d != m, then d - m = (M 2^-(q+n) - K 5^n) / (2^-q 5^n) for q &lt; -n, at least 2^q / 5^n, a
 * relative 1 / (5^n 2^25) &gt;= 2^-49; and d - m = (M - K 2^(q+n) 5^n) / 10^n otherwise, at
 * least 1 / 10^n, a relative 1 / M &gt;= 2^-30. A d equal to a midpoint is exact in double and
 * rounds to even either way. Everything else goes to {@link Float#parseFloat}.
 */
final class AsciiNumbers {
    /** Returned by {@link #parseIndex} for a token that is not all ASCII digits. */
    static final long NOT_AN_INTEGER = -1;
    /** Returned by {@link #parseIndex} for more digits than any index can have. */
    static final long TOO_LARGE = Long.MAX_VALUE;

    private static final int FAST_DIGITS = 9;
    private static final int FAST_SCALE = 10;
    private static final double[] POW10 = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10};

    private AsciiNumbers() {
    }

    /**
     * The float that {@code b[from, to)} denotes, or NaN when the bytes do not follow the grammar;
     * plus or minus infinity when the number overflows float32.
     */
    static float parseFloat(byte[] b, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (b[i] == '-' || b[i] == '+')) {
            negative = b[i] == '-';
            i++;
        }
        long mantissa = 0;
        int significant = 0;
        int scale = 0;
        int digits = 0;
        boolean slow = false;
        for (; i < to && isDigit(b[i]); i++, digits++) {
            if (significant < 18) {
                mantissa = mantissa * 10 + (b[i] - '0');
                significant += mantissa == 0 ? 0 : 1;
            } else {
                slow = true;
            }
        }
        if (i < to && b[i] == '.') {
            for (i++; i < to && isDigit(b[i]); i++, digits++) {
                if (significant < 18) {
                    mantissa = mantissa * 10 + (b[i] - '0');
                    significant += mantissa == 0 ? 0 : 1;
                    scale++;
                } else {
                    slow = true;
                }
            }
        }
        if (digits == 0) {
            return Float.NaN;
        }
        if (i < to && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean negativeExponent = false;
            if (i < to && (b[i] == '-' || b[i] == '+')) {
                negativeExponent = b[i] == '-';
                i++;
            }
            int exponent = 0;
            int exponentDigits = 0;
            for (; i < to && isDigit(b[i]); i++, exponentDigits++) {
                exponent = Math.min(exponent * 10 + (b[i] - '0'), 100_000);
            }
            if (exponentDigits == 0) {
                return Float.NaN;
            }
            scale += negativeExponent ? exponent : -exponent;
        }
        if (i != to) {
            return Float.NaN;
        }
        if (mantissa == 0 && !slow) {
            return negative ? -0.0f : 0.0f;
        }
        if (!slow && significant <= FAST_DIGITS && scale >= 0 && scale <= FAST_SCALE) {
            float f = (float) (mantissa / POW10[scale]);
            return negative ? -f : f;
        }
        return Float.parseFloat(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }

    /**
     * The non-negative integer {@code b[from, to)} denotes (leading zeros allowed),
     * {@link #NOT_AN_INTEGER} when it is empty or holds anything but ASCII digits, {@link #TOO_LARGE}
     * beyond 18 digits.
     */
    static long parseIndex(byte[] b, int from, int to) {
        if (from == to) {
            return NOT_AN_INTEGER;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (!isDigit(b[i])) {
                return NOT_AN_INTEGER;
            }
            if (v >= 100_000_000_000_000_000L) {
                return TOO_LARGE;
            }
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
