package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** The one line a failed command prints: the input's problem as it is, a defect said to be one. */
class ErrorLineTest {
    @Test
    void inputProblemsAreTheirOwnMessage() {
        assertEquals("train.txt:3: label 'x' is not a number",
                Main.describe(new IllegalArgumentException("train.txt:3: label 'x' is not a number")));
        assertEquals("no such file: a.txt", Main.describe(new NoSuchFileException("a.txt")));
        assertEquals("disk full", Main.describe(new UncheckedIOException(new IOException("disk full"))));
        assertFalse(Main.isBug(new IllegalStateException("checkpoint of another run")));
    }

    @Test
    void aDefectIsNotPassedOffAsAnInputProblem() {
        String line = Main.describe(new ArrayIndexOutOfBoundsException("Index 0 out of bounds for length 0"));
        assertTrue(line.startsWith("internal error (java.lang.ArrayIndexOutOfBoundsException: Index 0 out of bounds"), line);
        assertTrue(line.contains("--verbose"), line);
        assertTrue(Main.isBug(new NullPointerException()));
        assertTrue(Main.describe(new NullPointerException()).startsWith("internal error (java.lang.NullPointerException"));
    }
}
