package rankgrad.tornado;

import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The plan of {@link HingeKernels#hingeRanks}. */
final class HingeRanksPlan extends PairPlan {
    private final FloatArray labels;
    private final FloatArray ranks;

    HingeRanksPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        labels = new FloatArray(shapeClass.docs());
        ranks = new FloatArray(shapeClass.docs());
        install(newGraph("hingeRanks")
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, labels)
                .task("t", HingeKernels::hingeRanks, scores, labels, offsets, shape, params, ranks)
                .transferToHost(DataTransferMode.UNDER_DEMAND, ranks), device, profile);
    }

    long run(float alpha, float[] s, float[] y, int[] batchOffsets, float[] out) {
        loadBatch(s, batchOffsets, 0, alpha);
        copyIn(y, labels);
        long kernelNanos = execute(ranks);
        copyOut(ranks, out);
        return kernelNanos;
    }
}
