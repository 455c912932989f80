package rankgrad.tornado;

import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/** The plan of {@link LogisticPairKernels#truncatedLambdas} (LightGBM's LambdaRank). */
final class TruncatedLambdasPlan extends PairPlan {
    private final FloatArray labels;
    private final FloatArray gains;
    private final FloatArray discounts;
    private final FloatArray ranks;
    /** [level, scoreDistance ? 1 : 0]. */
    private final IntArray truncation;
    private final FloatArray grad;
    private final FloatArray lambdas;

    TruncatedLambdasPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        labels = new FloatArray(shapeClass.docs());
        gains = new FloatArray(shapeClass.docs());
        discounts = new FloatArray(shapeClass.docs());
        ranks = new FloatArray(shapeClass.docs());
        truncation = new IntArray(2);
        grad = new FloatArray(shapeClass.docs());
        lambdas = new FloatArray(shapeClass.docs());
        install(newGraph("truncatedLambdas")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, labels, gains, discounts, ranks, truncation)
                .task("t", LogisticPairKernels::truncatedLambdas, scores, labels, gains, discounts, ranks, offsets,
                        shape, params, truncation, grad, lambdas)
                .transferToHost(DataTransferMode.UNDER_DEMAND, grad, lambdas), device, profile);
    }

    long run(float sigma, float[] s, float[] y, float[] g, float[] d, float[] r, int level, boolean scoreDistance,
            int[] batchOffsets, float[] gradOut, float[] lambdasOut) {
        loadBatch(s, batchOffsets, 0, sigma);
        copyIn(y, labels);
        copyIn(g, gains);
        copyIn(d, discounts);
        copyIn(r, ranks);
        truncation.set(0, level);
        truncation.set(1, scoreDistance ? 1 : 0);
        long kernelNanos = execute(grad, lambdas);
        copyOut(grad, gradOut);
        copyOut(lambdas, lambdasOut);
        return kernelNanos;
    }
}
