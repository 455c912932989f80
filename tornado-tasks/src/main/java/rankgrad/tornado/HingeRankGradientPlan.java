package rankgrad.tornado;

import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The plan of {@link HingeKernels#hingeRankGradient}. */
final class HingeRankGradientPlan extends PairPlan {
    private final FloatArray labels;
    private final FloatArray rankGrad;
    private final FloatArray scoreGrad;

    HingeRankGradientPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        labels = new FloatArray(shapeClass.docs());
        rankGrad = new FloatArray(shapeClass.docs());
        scoreGrad = new FloatArray(shapeClass.docs());
        install(newGraph("hingeRankGradient")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, labels, rankGrad)
                .task("t", HingeKernels::hingeRankGradient, scores, labels, rankGrad, offsets, shape, params, scoreGrad)
                .transferToHost(DataTransferMode.UNDER_DEMAND, scoreGrad), device, profile);
    }

    long run(float alpha, float[] s, float[] y, int[] batchOffsets, float[] c, float[] out) {
        loadBatch(s, batchOffsets, 0, alpha);
        copyIn(y, labels);
        copyIn(c, rankGrad);
        long kernelNanos = execute(scoreGrad);
        copyOut(scoreGrad, out);
        return kernelNanos;
    }
}
