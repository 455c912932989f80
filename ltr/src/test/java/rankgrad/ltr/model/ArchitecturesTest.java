package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.data.Normalization;

class ArchitecturesTest {

    @Test
    void namesAreFoundInAnyCapitalizationAndStoredAsListed() {
        for (String name : Architectures.names()) {
            assertEquals(name, Architectures.canonical(name.toLowerCase(java.util.Locale.ROOT)));
            assertEquals(name, RankingModel.create(name.toUpperCase(java.util.Locale.ROOT), 4, new Normalization.None(), 1)
                    .architecture());
        }
    }

    @Test
    void anUnknownNameListsTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Architectures.canonical("B32"));
        assertTrue(e.getMessage().startsWith("unknown model 'B32'; choose one of [linear, R5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Architectures.spec("R7", 4, 1));
    }
}
