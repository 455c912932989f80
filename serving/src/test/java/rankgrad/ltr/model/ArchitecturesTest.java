package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.nn.Init;
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
    void batchNormNetworksStartFromPyTorchsLinearInitialization() {
        // Behind batch norm the weights' scale sets Adam's effective step (see Init.UNIFORM_FAN_IN):
        // He's 2.45 times larger bound trained R4.L as a 2.45 times smaller learning rate would.
        for (String name : Architectures.names()) {
            Init expected = name.equals("linear") ? Init.XAVIER_UNIFORM : Init.UNIFORM_FAN_IN;
            assertEquals(expected, Architectures.spec(name, 4, 1).init(), name);
        }
    }

    @Test
    void anUnknownNameListsTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Architectures.canonical("B32"));
        assertTrue(e.getMessage().startsWith("unknown model 'B32'; choose one of [linear, R5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Architectures.spec("R7", 4, 1));
    }
}
