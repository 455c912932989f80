/**
 * The pairwise kernels of {@code rankgrad.ltr.pairwise.PairwiseBackend} as TornadoVM task graphs,
 * registered through {@code ServiceLoader} and selected with {@code -Drankgrad.pairwise=tornado};
 * the CPU backend of {@code rankgrad.ltr} stays the fallback whenever the TornadoVM runtime or a
 * device is absent. This module holds no code yet: the offload is its own issue.
 */
package rankgrad.tornado;
