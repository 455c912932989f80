/**
 * Internal SIMD layer shared by every Vector API kernel of rankgrad: the species and its
 * {@code rankgrad.vector.bits} override ({@link rankgrad.simd.internal.VectorSupport}),
 * exp, sigmoid, tanh and log1p with the same bits in every JIT tier
 * ({@link rankgrad.simd.internal.VectorMath}), and the rule that chooses a vector
 * implementation or its scalar reference ({@link rankgrad.simd.internal.KernelSelection}).
 *
 * <p>Not an API: the classes are public only so that the kernel families of the modules above can
 * use them (nn's batch-norm and Adam kernels, the ranking pair kernels of {@code rankgrad.ltr}); as
 * a module, simd exports this package to {@code rankgrad.nn} and {@code rankgrad.ranking} alone (a
 * qualified export, as Lucene does with {@code internal.vectorization}). Classes here link against
 * {@code jdk.incubator.vector} and are loaded only when that module is readable.
 */
package rankgrad.simd.internal;
