/**
 * Internal plumbing shared by rankgrad's own modules: the fixed-size worker pool ({@link
 * rankgrad.autodiff.internal.Parallel}) that kernels and loss ops split rows and queries over.
 *
 * <p>Not an API: as a module, autodiff exports this package to {@code rankgrad.ltr} alone. The
 * thread count is set with {@code -Drankgrad.threads} (or the command line's {@code --threads}).
 */
package rankgrad.autodiff.internal;
