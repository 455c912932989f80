/**
 * The autodiff engine: tensors, reverse-mode differentiation, layers and optimizers, on the JDK
 * alone.
 *
 * <p>{@code jdk.incubator.vector} is optional ({@code requires static}): without {@code
 * --add-modules jdk.incubator.vector} the module resolves, links nothing against the Vector API
 * and runs the scalar kernels (one log line says so). The kernels ({@code rankgrad.simd})
 * are not exported; the SIMD layer and the worker pool are exported only to {@code rankgrad.ltr},
 * whose pair kernels and loss ops share them (Lucene's {@code internal.vectorization} pattern).
 */
// "module": the qualified exports name rankgrad.ltr, which is built after this module.
@SuppressWarnings("module")
module rankgrad.autodiff {
    requires static jdk.incubator.vector;

    exports rankgrad.autodiff;
    exports rankgrad.nn;
    exports rankgrad.autodiff.ops;
    exports rankgrad.nn.optim;

    exports rankgrad.simd to rankgrad.ltr;
    exports rankgrad.simd.internal to rankgrad.ltr;
}
