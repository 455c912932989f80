/**
 * The rankgrad testkit: QuickTheories generators and reusable laws to check your own ops, rank
 * operators, ranking losses and kernels, added to a project in test scope
 * ({@code io.github.rankgrad:rankgrad-testkit}). rankgrad's own property tests use it the same way.
 *
 * <p>Conventions, so that the pieces compose:
 * <ul>
 *   <li>{@code XxxCases}: static factories of {@code Gen<XxxCase>} (QuickTheories generators that
 *       draw every number from the randomness source, so failures shrink); a case is a record with
 *       a readable {@code toString} and the seed the subject should use for its own draws
 *       ({@link rankgrad.testkit.RankingCases}, {@link rankgrad.testkit.OpCase},
 *       {@link rankgrad.testkit.Directions}).</li>
 *   <li>{@code XxxLaws}: static {@code assertXxx(subject, case, tolerance)} methods that check one
 *       law on one case and throw {@link java.lang.AssertionError} naming the law, the place and
 *       the numbers; the test wraps them in {@code qt().forAll(gen).checkAssert(...)}, and
 *       QuickTheories shrinks a failure and prints it with its seed
 *       ({@link rankgrad.testkit.GradientLaws}, {@link rankgrad.testkit.RankLaws},
 *       {@link rankgrad.testkit.MetricLaws}, {@link rankgrad.testkit.KernelLaws}).</li>
 *   <li>{@code XxxContract}: abstract JUnit 5 classes holding a whole suite of laws for an
 *       implementation of an extension interface; a test extends one and supplies the
 *       implementation.</li>
 *   <li>References written from the papers' equations ({@link rankgrad.testkit.NaiveReference})
 *       are independent of rankgrad's implementation.</li>
 * </ul>
 *
 * <p>A failure is reproducible: QuickTheories reads its seed from the system property
 * {@code QT_SEED} and prints the seed of a failing run.
 */
package rankgrad.testkit;
