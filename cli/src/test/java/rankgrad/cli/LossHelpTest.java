package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.loss.LossFamily;
import rankgrad.ltr.loss.Losses;

/** {@code train --help} lists the losses from the registry, so a new registry row shows up there. */
class LossHelpTest {

    @Test
    void trainHelpListsEveryRegisteredLoss() {
        CliTest.Run help = CliTest.run("train", "--help");
        assertEquals(0, help.code(), help.err());
        // Without blanks: the help wraps long names (METRIC~sigmoid[:ALPHA]) inside a word.
        String text = help.out().replaceAll("\\s+", "");
        for (LossFamily family : Losses.families()) {
            assertTrue(text.contains(family.syntax().replaceAll("\\s+", "")), family.syntax() + " missing from train --help:\n"
                    + help.out());
        }
        assertTrue(text.contains("METRIC=" + Losses.METRICS.replaceAll("\\s+", "")), help.out());
        assertTrue(text.contains("spsa:F,fdsa"), help.out());
    }
}
