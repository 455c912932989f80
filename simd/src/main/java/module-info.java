/**
 * Array-in, array-out numerics on the JDK alone: the {@link rankgrad.simd.Kernels} interface with a
 * scalar reference and a Panama Vector API implementation chosen at first use, GEMM, the worker
 * team ({@link rankgrad.simd.Parallel}) and the array {@link rankgrad.simd.Workspace}. No tensors,
 * no graph.
 *
 * <p>{@code jdk.incubator.vector} is optional ({@code requires static}): without {@code
 * --add-modules jdk.incubator.vector} the module resolves, links nothing against the Vector API
 * and runs the scalar kernels (one log line says so). The SIMD idioms ({@code
 * rankgrad.simd.internal}: species, fixed-polynomial math, kernel selection) go only to the
 * modules whose own kernels share them, a qualified export (Lucene's {@code
 * internal.vectorization} pattern; docs/design.md §2): {@code rankgrad.nn} (the batch-norm and
 * Adam kernels) and {@code rankgrad.ranking} (the pair kernels).
 */
// "module": the qualified export names a module built after this one.
@SuppressWarnings("module")
module rankgrad.simd {
    requires static jdk.incubator.vector;

    exports rankgrad.simd;

    exports rankgrad.simd.internal to rankgrad.nn, rankgrad.ranking;
}
