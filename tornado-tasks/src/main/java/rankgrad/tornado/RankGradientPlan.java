package rankgrad.tornado;

import rankgrad.ltr.pairwise.BackwardType;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The plan of {@link RankKernels#rankGradient} (all three backward types: the type is an input). */
final class RankGradientPlan extends PairPlan {
    private final FloatArray labels;
    private final FloatArray rankGrad;
    private final FloatArray scoreGrad;

    RankGradientPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        labels = new FloatArray(shapeClass.docs());
        rankGrad = new FloatArray(shapeClass.docs());
        scoreGrad = new FloatArray(shapeClass.docs());
        install(newGraph("rankGradient")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, labels, rankGrad)
                .task("t", RankKernels::rankGradient, scores, labels, rankGrad, offsets, shape, params, scoreGrad)
                .transferToHost(DataTransferMode.UNDER_DEMAND, scoreGrad), device, profile);
    }

    long run(BackwardType type, float alpha, float[] s, float[] y, int[] batchOffsets, float[] g,
            float[] out) {
        loadBatch(s, batchOffsets, type.number(), alpha);
        copyIn(y, labels);
        copyIn(g, rankGrad);
        long kernelNanos = execute(scoreGrad);
        copyOut(scoreGrad, out);
        return kernelNanos;
    }
}
