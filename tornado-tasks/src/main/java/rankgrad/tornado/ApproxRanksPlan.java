package rankgrad.tornado;

import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;

/** The plan of {@link RankKernels#approxRanks}. */
final class ApproxRanksPlan extends PairPlan {
    private final FloatArray ranks;

    ApproxRanksPlan(ShapeClass shapeClass, TornadoDevice device, boolean profile) {
        super(shapeClass);
        ranks = new FloatArray(shapeClass.docs());
        install(newGraph("approxRanks")
                .task("t", RankKernels::approxRanks, scores, offsets, shape, params, ranks)
                .transferToHost(DataTransferMode.UNDER_DEMAND, ranks), device, profile);
    }

    long run(float[] s, int[] batchOffsets, float alpha, float[] out) {
        loadBatch(s, batchOffsets, 0, alpha);
        long kernelNanos = execute(ranks);
        copyOut(ranks, out);
        return kernelNanos;
    }
}
