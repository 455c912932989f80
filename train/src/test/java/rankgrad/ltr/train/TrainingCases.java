package rankgrad.ltr.train;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import rankgrad.ltr.loss.LossFamily;
import rankgrad.ltr.loss.Losses;

/** Parameter sources of this module's tests. */
final class TrainingCases {
    private TrainingCases() {
    }

    /** Every family of the loss registry, named by its example, for {@code @MethodSource}. */
    static Stream<Named<LossFamily>> lossFamilies() {
        return Losses.families().stream().map(f -> Named.of(f.example(), f));
    }
}
