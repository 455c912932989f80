/**
 * Ranking data: {@link rankgrad.ltr.data.Dataset} of whole queries, LETOR / SVMlight text
 * (read and written by the {@code rankgrad-letor} module), feature
 * {@link rankgrad.ltr.data.Normalization}, cross-validation {@link rankgrad.ltr.data.Folds} and
 * the papers' synthetic data ({@link rankgrad.ltr.data.CubicData},
 * {@link rankgrad.ltr.data.UniformData}). All public types are API.
 */
package rankgrad.ltr.data;
