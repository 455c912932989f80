package rankgrad.ltr.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An elementwise transform of the raw feature values, applied before the {@link Normalization}
 * (and before its statistics are fitted). It is stored in the model file with the normalization,
 * so prediction applies it again.
 *
 * <ul>
 *   <li>{@link #NONE}: x as it is.
 *   <li>{@link #SIGNED_LOG1P}: x' = sign(x) ln(1 + |x|) (Qin et al., ICLR 2021, DASALC Sec. 3.1,
 *       the "log1p transformation" of the inputs): it compresses heavy-tailed counts (BM25,
 *       click counts, page rank) while keeping 0 at 0 and the sign of negative values; it is odd
 *       and strictly increasing, so it never merges two distinct values' order and needs no
 *       inverse.
 * </ul>
 *
 * <pre>{@code
 * Dataset logged = FeatureTransform.SIGNED_LOG1P.apply(raw);
 * Normalization z = Normalization.byName("standardize", logged);   // fitted on transformed values
 * }</pre>
 *
 * <p>Implementation: computed in float64 with {@link Math#log1p} (accurate near 0, where
 * ln(1 + x) would lose the digits of a small x) and rounded once to float32; -0.0 stays -0.0.
 */
public enum FeatureTransform {
    /** The identity. */
    NONE("none"),
    /** x' = sign(x) ln(1 + |x|). */
    SIGNED_LOG1P("signed-log1p");

    private final String kind;

    FeatureTransform(String kind) {
        this.kind = kind;
    }

    /** The name used in model files and on the command line. */
    public String kind() {
        return kind;
    }

    /** The names {@link #byName} accepts. */
    public static List<String> names() {
        return Arrays.stream(values()).map(FeatureTransform::kind).toList();
    }

    /**
     * The transform called {@code name} ({@link #names()}).
     *
     * @throws IllegalArgumentException naming the choices, for an unknown name
     */
    public static FeatureTransform byName(String name) {
        for (FeatureTransform t : values()) {
            if (t.kind.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown feature transform '" + name + "'; choose one of "
                + String.join(", ", names()));
    }

    /** The transform of one value. */
    public float apply(float x) {
        return switch (this) {
            case NONE -> x;
            case SIGNED_LOG1P -> (float) Math.copySign(Math.log1p(Math.abs((double) x)), x);
        };
    }

    /** One query with every feature value transformed (the same query for {@link #NONE}). */
    public Query apply(Query q) {
        if (this == NONE) {
            return q;
        }
        float[] x = q.x();
        float[] out = new float[x.length];
        for (int i = 0; i < x.length; i++) {
            out[i] = apply(x[i]);
        }
        return q.withX(out);
    }

    /** Every query of {@code data} transformed (the same dataset for {@link #NONE}). */
    public Dataset apply(Dataset data) {
        if (this == NONE) {
            return data;
        }
        List<Query> out = new ArrayList<>(data.size());
        for (Query q : data.queries()) {
            out.add(apply(q));
        }
        return new Dataset(data.name(), data.features(), out);
    }
}
