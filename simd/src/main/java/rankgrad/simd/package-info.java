/**
 * Array-in, array-out numerics: the {@link rankgrad.simd.Kernels} interface, its scalar reference
 * {@link rankgrad.simd.ScalarKernels} and a Panama Vector API implementation chosen once at
 * start-up ({@link rankgrad.simd.KernelProvider}, with the rule of {@code
 * rankgrad.simd.internal.KernelSelection}; {@code -Drankgrad.kernels=auto|scalar|vector}); GEMM;
 * the worker team ({@link rankgrad.simd.Parallel}: {@code -Drankgrad.threads} or {@link
 * rankgrad.simd.Parallel#setThreads}); the fixed row partition {@link rankgrad.simd.RowChunks};
 * and the array {@link rankgrad.simd.Workspace}. No tensors and no graph: the autodiff engine
 * builds on these (docs/design.md §2).
 */
package rankgrad.simd;
