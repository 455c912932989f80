/**
 * JMH benchmarks of the kernels (run through {@code scripts/bench-kernels}, which adds the
 * numpy/OpenBLAS and PyTorch/MKL references measured in the same run). Not part of the test suite.
 */
package rankgrad.benchmarks;
