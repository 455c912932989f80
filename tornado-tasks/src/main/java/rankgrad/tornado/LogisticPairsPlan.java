package rankgrad.tornado;

import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The plan of {@link LogisticPairKernels#logisticPairs} (RankNet and LambdaRank: the weighting is an input). */
final class LogisticPairsPlan extends PairPlan {
    private final FloatArray labels;
    private final FloatArray gains;
    private final FloatArray discounts;
    private final FloatArray grad;
    private final FloatArray cost;

    LogisticPairsPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        labels = new FloatArray(shapeClass.docs());
        gains = new FloatArray(shapeClass.docs());
        discounts = new FloatArray(shapeClass.docs());
        grad = new FloatArray(shapeClass.docs());
        cost = new FloatArray(shapeClass.docs());
        install(newGraph("logisticPairs")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, labels, gains, discounts)
                .task("t", LogisticPairKernels::logisticPairs, scores, labels, gains, discounts, offsets, shape, params,
                        grad, cost)
                .transferToHost(DataTransferMode.UNDER_DEMAND, grad, cost), device, profile);
    }

    /** {@code gains == null}: RankNet (unit weights; gains and discounts are not copied). */
    long run(float sigma, float[] s, float[] y, float[] g, float[] d, int[] batchOffsets,
            float[] gradOut, float[] costOut) {
        loadBatch(s, batchOffsets, g == null ? 0 : 1, sigma);
        copyIn(y, labels);
        if (g != null) {
            copyIn(g, gains);
            copyIn(d, discounts);
        }
        long kernelNanos = execute(grad, cost);
        copyOut(grad, gradOut);
        copyOut(cost, costOut);
        return kernelNanos;
    }
}
