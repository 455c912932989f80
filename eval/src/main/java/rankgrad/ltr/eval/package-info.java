/**
 * Comparing rankers over the same queries: the Wilcoxon signed-rank test and Student-t confidence
 * intervals of {@link rankgrad.ltr.eval.Significance} (API).
 */
package rankgrad.ltr.eval;
