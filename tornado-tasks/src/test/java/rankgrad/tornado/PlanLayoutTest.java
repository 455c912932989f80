package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A plan up to the device call, without a device: shape classes, and how {@link PairPlan} lays a
 * batch into its (larger) host buffers and copies the batch's rows back; the layout the kernels
 * read ({@link KernelsAsJavaTest} checks the kernels on it).
 */
@Tag(DeviceFree.TAG)
class PlanLayoutTest {
    @Test
    void shapeClassesArePowersOfTwoAboveTheMinimums() {
        assertEquals(new ShapeClass(ShapeClass.MIN_DOCS, ShapeClass.MIN_QUERIES), ShapeClass.of(1, 1));
        assertEquals(new ShapeClass(2048, 32), ShapeClass.of(1025, 17));
        assertEquals(new ShapeClass(4096, 64), ShapeClass.of(4096, 64), "a power of two is its own class");
    }

    @Test
    void shapeClassesHoldTheirBatchesAndOnlyGrow() {
        ShapeClass c = ShapeClass.of(3000, 20);
        assertTrue(c.holds(3000, 20));
        assertTrue(c.holds(4096, 32));
        assertFalse(c.holds(4097, 32));
        assertFalse(c.holds(10, 33));
        ShapeClass grown = c.grownFor(10, 100);
        assertEquals(new ShapeClass(4096, 128), grown, "more queries, same documents: documents kept");
        assertEquals(grown, grown.grownFor(5, 5), "a smaller batch never shrinks a plan");
    }

    @Test
    void aBatchTooLargeForOneBufferIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShapeClass.of((1 << 30) + 1, 1));
        assertTrue(e.getMessage().contains("too large"), e.getMessage());
    }

    @Test
    void loadBatchPadsOffsetsAndSetsShapeAndParameters() {
        PairPlan plan = hostOnlyPlan();
        RaggedBatch b = RaggedBatch.random(2, new int[] {0, 3, 7}, 5);
        plan.loadBatch(b.scores(), b.offsets(), 2, 0.75f);
        int queries = b.offsets().length - 1;
        int n = b.docs();
        for (int q = 0; q <= queries; q++) {
            assertEquals(b.offsets()[q], plan.offsets.get(q), "offset " + q);
        }
        for (int q = queries + 1; q < plan.offsets.getSize(); q++) {
            // Padding with n makes every query past the batch empty, so rows >= n find no query.
            assertEquals(n, plan.offsets.get(q), "padded offset " + q);
        }
        assertEquals(n, plan.shape.get(RankKernels.DOCS));
        assertEquals(queries, plan.shape.get(RankKernels.QUERIES));
        assertEquals(2, plan.shape.get(RankKernels.MODE));
        assertEquals(0.75f, plan.params.get(0));
        assertArrayEquals(b.scores(), Arrays.copyOf(plan.scores.toHeapArray(), n));
        assertEquals(0, plan.first());
        assertEquals(n, plan.end());
    }

    @Test
    void aSmallerBatchAfterALargerOneLeavesNoOldOffsetBehind() {
        PairPlan plan = hostOnlyPlan();
        RaggedBatch large = RaggedBatch.random(3, new int[] {9}, 12);
        RaggedBatch small = RaggedBatch.random(4, new int[] {4}, 2);
        plan.loadBatch(large.scores(), large.offsets(), 0, 1f);
        plan.loadBatch(small.scores(), small.offsets(), 0, 1f);
        for (int q = 3; q < plan.offsets.getSize(); q++) {
            assertEquals(small.docs(), plan.offsets.get(q), "offset " + q + " still the large batch's");
        }
        assertEquals(2, plan.shape.get(RankKernels.QUERIES));
    }

    @Test
    void copyOutWritesOnlyTheBatchRows() {
        PairPlan plan = hostOnlyPlan();
        RaggedBatch b = RaggedBatch.random(5, new int[] {1, 6}, 4);
        plan.loadBatch(b.scores(), b.offsets(), 0, 1f);
        float[] out = new float[b.docs() + 3];
        Arrays.fill(out, -1f);
        plan.copyOut(plan.scores, out);
        assertArrayEquals(b.scores(), Arrays.copyOf(out, b.docs()));
        for (int k = b.docs(); k < out.length; k++) {
            assertEquals(-1f, out[k], "row " + k + " is past the batch");
        }
    }

    /** A plan with host buffers only: no task graph, so nothing reaches TornadoVM's runtime. */
    private static PairPlan hostOnlyPlan() {
        return new PairPlan(ShapeClass.of(100, 20)) {
        };
    }
}
