package rankgrad.tornado;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import uk.ac.manchester.tornado.api.DataRange;
import uk.ac.manchester.tornado.api.ImmutableTaskGraph;
import uk.ac.manchester.tornado.api.TaskGraph;
import uk.ac.manchester.tornado.api.TornadoExecutionPlan;
import uk.ac.manchester.tornado.api.TornadoExecutionResult;
import uk.ac.manchester.tornado.api.common.TornadoDevice;
import uk.ac.manchester.tornado.api.enums.DataTransferMode;
import uk.ac.manchester.tornado.api.enums.ProfilerMode;
import uk.ac.manchester.tornado.api.enums.TornadoVMBackendType;
import uk.ac.manchester.tornado.api.exceptions.TornadoExecutionPlanException;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * One kernel's TaskGraph, compiled once for a {@link ShapeClass} and reused for every batch that
 * fits: its buffers (the batch's scores, offsets, shape and parameters, plus each subclass's own)
 * live on the device for the plan's lifetime, inputs are copied in on every execution, and only
 * the batch's part of each output is copied back.
 *
 * <p>OpenCL kernels are compiled without TornadoVM's default {@code -cl-fast-relaxed-math}: the
 * sigmoid relies on e^x = +inf giving exactly 0 for far-apart scores (IEEE), which fast math
 * does not promise.
 *
 * <p>Not thread-safe: the backend serializes calls.
 */
abstract class PairPlan implements AutoCloseable {
    /** OpenCL build options: warnings off, no fast-math (see the class comment). */
    private static final String OPENCL_FLAGS = "-w";

    private final ShapeClass shapeClass;
    /** Batch scores (input of every kernel). */
    final FloatArray scores;
    /** Query offsets, padded with the document count up to the capacity. */
    final IntArray offsets;
    /** [documents, queries, mode] of the current batch (layout in {@link RankKernels}). */
    final IntArray shape;
    /** [alpha or sigma] of the current call. */
    final FloatArray params;
    private TornadoExecutionPlan executionPlan;
    private boolean profile;
    private int first;
    private int end;

    PairPlan(ShapeClass shapeClass) {
        this.shapeClass = shapeClass;
        this.scores = new FloatArray(shapeClass.docs());
        this.offsets = new IntArray(shapeClass.queries() + 1);
        this.shape = new IntArray(3);
        this.params = new FloatArray(1);
    }

    /** The TaskGraph name, naming kernel and shape class (in TornadoVM logs and per-graph options). */
    final String graphName(String kernel) {
        return "rankgrad_" + kernel + "_" + shapeClass.docs() + "x" + shapeClass.queries();
    }

    /** A graph that copies the common inputs in on every execution; subclasses add their inputs and task. */
    final TaskGraph newGraph(String kernel) {
        return new TaskGraph(graphName(kernel))
                .transferToDevice(DataTransferMode.EVERY_EXECUTION, scores, offsets, shape, params);
    }

    /** Freezes {@code graph} into the execution plan bound to {@code device}; compiled on first use. */
    final void install(TaskGraph graph, TornadoDevice device, boolean profile) {
        ImmutableTaskGraph frozen = graph.snapshot();
        TornadoExecutionPlan plan = new TornadoExecutionPlan(frozen);
        plan.withDevice(device).withCompilerFlags(TornadoVMBackendType.OPENCL, OPENCL_FLAGS);
        if (profile) {
            plan.withProfiler(ProfilerMode.SILENT);
        }
        this.profile = profile;
        executionPlan = plan;
    }

    ShapeClass shapeClass() {
        return shapeClass;
    }

    /** The first document of the batch loaded last. */
    final int first() {
        return first;
    }

    /** One past the last document of the batch loaded last. */
    final int end() {
        return end;
    }

    /**
     * Loads the batch's offsets, scores and scalars into the host buffers; the batch must fit
     * ({@link ShapeClass#holds}).
     */
    final void loadBatch(float[] batchScores, int[] batchOffsets, int mode, float param) {
        int queries = batchOffsets.length - 1;
        first = batchOffsets[0];
        end = batchOffsets[queries];
        for (int q = 0; q <= queries; q++) {
            offsets.set(q, batchOffsets[q]);
        }
        for (int q = queries + 1; q < offsets.getSize(); q++) {
            offsets.set(q, end);
        }
        shape.set(RankKernels.DOCS, end);
        shape.set(RankKernels.QUERIES, queries);
        shape.set(RankKernels.MODE, mode);
        params.set(0, param);
        copyIn(batchScores, scores);
    }

    /** Copies the batch's documents of {@code src} into the device buffer {@code dst}. */
    final void copyIn(float[] src, FloatArray dst) {
        MemorySegment.copy(src, first, dst.getSegment(), ValueLayout.JAVA_FLOAT, (long) first * Float.BYTES,
                end - first);
    }

    /**
     * Runs the graph and copies the batch's part of each output back to the host buffers. Returns
     * the kernel's device time in ns when the plan profiles (read before the copies, which start
     * a new profile), else 0.
     */
    final long execute(FloatArray... outputs) {
        TornadoExecutionResult result = executionPlan.execute();
        long kernelNanos = profile ? result.getProfilerResult().getDeviceKernelTime() : 0;
        for (FloatArray out : outputs) {
            result.transferToHost(new DataRange(out).withOffset(first).withSize(end - first));
        }
        return kernelNanos;
    }

    /** Copies the batch's documents of a host buffer into the caller's array. */
    final void copyOut(FloatArray src, float[] dst) {
        MemorySegment.copy(src.getSegment(), ValueLayout.JAVA_FLOAT, (long) first * Float.BYTES, dst, first,
                end - first);
    }

    /** The device this plan runs on. */
    final TornadoDevice device() {
        return executionPlan.getDevice(0);
    }

    /** Frees the plan's device buffers. */
    @Override
    public void close() {
        try {
            executionPlan.close();
        } catch (TornadoExecutionPlanException e) {
            throw new IllegalStateException("TornadoVM could not free the device buffers of a plan for " + shapeClass, e);
        }
    }
}
