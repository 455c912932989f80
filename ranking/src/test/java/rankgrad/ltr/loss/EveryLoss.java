package rankgrad.ltr.loss;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * The loss registry as test arguments: every loss-wide test takes its losses from here, so a new
 * row of {@link Losses} is covered without touching a test.
 */
public final class EveryLoss {
    /** The training run the losses are made for (REG-SHF-SDCG needs one) and the step they are at. */
    public static final long RUN = 20;
    /** The middle of the run: REG-SHF-SDCG's tau is 1/2, so both of its terms count. */
    public static final long STEP = RUN / 2;

    private EveryLoss() {
    }

    /** Every family of the registry, named by its example, for {@code @MethodSource}. */
    public static Stream<Named<LossFamily>> families() {
        return Losses.families().stream().map(f -> Named.of(f.example(), f));
    }

    /**
     * The family's example loss as the trainer uses it at step {@link #STEP} of a run of
     * {@link #RUN} steps; made afresh, so seeded draws replay from the same call.
     */
    public static RankingLoss make(LossFamily family) {
        return Losses.parse(family.example(), 7).forRun(RUN).atStep(STEP);
    }
}
