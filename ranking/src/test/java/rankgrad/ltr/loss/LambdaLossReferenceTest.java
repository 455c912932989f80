package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.LossTesting.Evaluated;

/**
 * {@link LambdaLoss} against allRank's own {@code lambdaLoss} ({@code reference/allrank_lambdaloss.txt},
 * written by {@code reference/gen_allrank.py}, whose docstring has the command): per query value
 * and gradient, float64. allRank sums over its batch, rankgrad averages: each fixture query is one
 * allRank slate, and a batch of Q queries is compared as the mean of their values and Q times
 * rankgrad's gradient.
 */
class LambdaLossReferenceTest {
    /**
     * The agreement asked: 1e-6. allRank computes its discounts log2(1 + i) in float32
     * ({@code pos_idxs.float()}), a relative error of about 6e-8 on values and gradients of order 1
     * to 10; every other operation is float64 on both sides.
     */
    private static final double AGREEMENT = 1e-6;
    private static final List<ReferenceFixture.Case> CASES = ReferenceFixture.read("reference/allrank_lambdaloss.txt");

    static Stream<Named<ReferenceFixture.Case>> cases() {
        return CASES.stream().map(c -> Named.of(c.line(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void valueAndGradientEqualAllRanks(ReferenceFixture.Case c) {
        QueryBatch batch = ReferenceFixture.batch(c);
        double[] values = ReferenceFixture.flat(c, "value");
        double[] expected = ReferenceFixture.flat(c, "grad");
        Evaluated got = LossTesting.evaluate(loss(c), batch, ReferenceFixture.flat(c, "scores"));
        int queries = batch.queries();
        double mean = 0;
        for (double v : values) {
            mean += v / queries;
        }
        assertEquals(mean, got.value(), AGREEMENT, "value of " + c.line());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], queries * got.grad()[i], AGREEMENT, "document " + i + " of " + c.line());
        }
    }

    @Test
    void theRegistryNamesBuildTheSameLosses() {
        assertEquals("ndcgloss2++@4:2.5", Losses.parse("ndcgloss2++@4:2.5", 1).name());
        assertEquals(LambdaLoss.Scheme.NDCG_LOSS2_PLUS_PLUS, ((LambdaLoss) Losses.parse("ndcgloss2++", 1)).scheme());
        assertEquals(LambdaLoss.DEFAULT_MU, ((LambdaLoss) Losses.parse("ndcgloss2++", 1)).mu());
        assertEquals(5, ((LambdaLoss) Losses.parse("ndcgloss2@5", 1)).truncation());
    }

    private static LambdaLoss loss(ReferenceFixture.Case c) {
        LambdaLoss loss = switch (c.text("scheme")) {
            case "ndcgLoss1_scheme" -> LambdaLoss.ndcgLoss1(1L);
            case "ndcgLoss2_scheme" -> LambdaLoss.ndcgLoss2(1L);
            case "ndcgLoss2PP_scheme" -> LambdaLoss.ndcgLoss2PlusPlus(c.number("mu"), 1L);
            default -> throw new IllegalArgumentException(c.line());
        };
        int k = (int) c.number("k");
        return (k == 0 ? loss : loss.withTruncation(k)).withSigma(c.number("sigma"));
    }
}
