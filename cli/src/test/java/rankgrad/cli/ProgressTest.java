package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Epoch times print with two significant digits, in milliseconds below one second. */
class ProgressTest {
    @Test
    void durationsHaveTwoSignificantDigits() {
        assertEquals("48ms", Progress.duration(0.0481));
        assertEquals("3.1ms", Progress.duration(0.00312));
        assertEquals("0.25ms", Progress.duration(0.000249));
        assertEquals("990ms", Progress.duration(0.9901));
        assertEquals("1.3s", Progress.duration(1.26));
        assertEquals("12s", Progress.duration(12.4));
        assertEquals("140s", Progress.duration(137));
        assertEquals("0ms", Progress.duration(0));
    }
}
