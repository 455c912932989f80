/**
 * The pairwise backend of {@code rankgrad.ltr.pairwise.PairwiseBackend} on TornadoVM: device
 * kernels ({@code *Kernels}: static methods on TornadoVM types, one work item per document row of
 * a ragged batch), plans ({@code *Plan}: a TaskGraph compiled once per batch size class, buffers
 * kept on the device) and the backends {@code tornado} and {@code auto}, registered through
 * {@code ServiceLoader} and selected with {@code -Drankgrad.pairwise} or {@code --backend}. The CPU
 * backend of {@code rankgrad.ltr} stays the fallback whenever the TornadoVM runtime or a device is
 * absent, and whenever TornadoVM fails. Built only with the Maven profile {@code tornado}.
 */
package rankgrad.tornado;
