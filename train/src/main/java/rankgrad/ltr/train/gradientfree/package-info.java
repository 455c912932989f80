/**
 * Gradient-free training of Yue and Burges: SPSA ({@link rankgrad.ltr.train.gradientfree.Spsa})
 * and FDSA ({@link rankgrad.ltr.train.gradientfree.Fdsa}) with Spall's gains
 * ({@link rankgrad.ltr.train.gradientfree.SpsaGains}), run by
 * {@link rankgrad.ltr.train.gradientfree.GradientFreeTrainer} on any
 * {@link rankgrad.ltr.train.gradientfree.Objective}.
 */
package rankgrad.ltr.train.gradientfree;
