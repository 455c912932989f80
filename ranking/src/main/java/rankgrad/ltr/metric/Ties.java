package rankgrad.ltr.metric;

/**
 * How an exact metric orders documents whose scores are equal (IEEE {@code ==}, so -0.0 and +0.0
 * tie).
 */
public enum Ties {
    /** Tied documents keep their input order (DESIGN section 3.1; the default). */
    STABLE,
    /**
     * Among tied documents the less relevant come first (lower label first, then input order): the
     * worst value any tie-breaking could give, so a constant scorer cannot look good by accident.
     */
    PESSIMISTIC
}
