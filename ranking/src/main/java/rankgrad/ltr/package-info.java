/**
 * Learning to rank on the {@code rankgrad.autodiff} engine: ragged query batches, exact IR
 * metrics, the rank operators and losses of the papers as custom-gradient nodes.
 * Depends on the JDK and {@code rankgrad.autodiff} only.
 */
package rankgrad.ltr;
