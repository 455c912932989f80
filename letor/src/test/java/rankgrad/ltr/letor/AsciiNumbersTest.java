package rankgrad.ltr.letor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The byte-level number parser against {@link Float#parseFloat}, the reference, bit for bit. */
class AsciiNumbersTest {

    private static float parse(String s) {
        byte[] b = ("  " + s + "  ").getBytes(StandardCharsets.UTF_8);
        return AsciiNumbers.parseFloat(b, 2, b.length - 2);
    }

    private static void assertSameAsJdk(String s) {
        float expected = Float.parseFloat(s);
        float actual = parse(s);
        assertEquals(Float.floatToRawIntBits(expected), Float.floatToRawIntBits(actual),
                s + ": expected " + expected + ", got " + actual);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0", "+0", "0.0", "-0.0", "1", "1.", ".5", "+.5e-3", "-2.5E+2", "007", "0.43607816",
        "-0.4305744", "6.365156E-4", "16777216", "16777217", "16777219", "33554433", "999999999", "0.1", "0.3", "3e-1",
        "0.999999999", "1.0000000596046448", "1e-45", "1.4e-45", "7e-46", "1e-50", "3.4028235e38", "3.4028236e38",
        "1e38", "0.0000000001", "1234567890123456789012", "0.00000000000000000000000000000000000001",
        "4.9999999e-1", "2.000000238418579", "1e10", "1e+10", "5e3", "123456789e-10", "1.17549435E-38"})
    void edgeCasesRoundAsTheJdkDoes(String s) {
        assertSameAsJdk(s);
    }

    @Test
    void randomDecimalsRoundAsTheJdkDoes() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            String s = switch (i % 5) {
                case 0 -> Float.toString(Float.intBitsToFloat(rng.nextInt()) % 1e6f);
                case 1 -> String.format(Locale.ROOT, "%." + rng.nextInt(12) + "f", rng.nextDouble(-1000, 1000));
                case 2 -> (rng.nextLong(1_000_000_000L)) + "e-" + rng.nextInt(13);
                case 3 -> Float.toString(rng.nextFloat());
                default -> "0." + String.format(Locale.ROOT, "%0" + (1 + rng.nextInt(10)) + "d", rng.nextInt(1_000_000_000) % 1_000_000_000);
            };
            if (s.contains("NaN") || s.contains("Infinity")) {
                continue;
            }
            assertSameAsJdk(s);
        }
    }

    @Test
    void midpointsBetweenFloatsRoundToEven() {
        // 2^24 + 1 and 2^24 + 3 lie halfway between floats; ties go to the even significand.
        assertEquals(16777216f, parse("16777217"));
        assertEquals(16777220f, parse("16777219"));
        // Halfway between 1 and the next float (1 + 2^-24) written with 9 digits is not exact: the JDK decides.
        assertSameAsJdk("1.00000006");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "+", ".", "e5", "1e", "1e+", "--1", "1.2.3", "1,5", "NaN", "Infinity", "0x10", "1f",
        "1d", " 1", "1 ", "\u0663", "1\u0660", "١"})
    void textOutsideTheGrammarIsNotANumber(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        assertTrue(Float.isNaN(AsciiNumbers.parseFloat(b, 0, b.length)), s);
    }

    @Test
    void overflowIsInfinite() {
        assertEquals(Float.POSITIVE_INFINITY, parse("1e39"));
        assertEquals(Float.NEGATIVE_INFINITY, parse("-3.5e38"));
    }

    @Test
    void indicesAreAsciiDigitsOnly() {
        byte[] b = "0042 12a \u0663 99999999999999999999".getBytes(StandardCharsets.UTF_8);
        assertEquals(42, AsciiNumbers.parseIndex(b, 0, 4));
        assertEquals(AsciiNumbers.NOT_AN_INTEGER, AsciiNumbers.parseIndex(b, 5, 8));
        assertEquals(AsciiNumbers.NOT_AN_INTEGER, AsciiNumbers.parseIndex(b, 9, 11));
        assertEquals(AsciiNumbers.TOO_LARGE, AsciiNumbers.parseIndex(b, 12, b.length));
        assertEquals(AsciiNumbers.NOT_AN_INTEGER, AsciiNumbers.parseIndex(b, 4, 4));
    }
}
