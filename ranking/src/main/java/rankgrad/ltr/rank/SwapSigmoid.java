package rankgrad.ltr.rank;

/**
 * The sigmoid f that relaxes a comparator of a differentiable sorting network (Petersen et al.,
 * ICML 2021 Eq. 2; ICLR 2022 "Monotonic Differentiable Sorting Networks", Sec. 4 and Definition
 * 4): the comparator of a and b puts alpha a + (1 - alpha) b on its min wire and (1 - alpha) a +
 * alpha b on its max wire, alpha = f(beta (b - a)), beta the steepness. Each f satisfies f(-v) =
 * 1 - f(v), f(0) = 1/2, as the network's symmetry needs; the formulas are those of the
 * {@code diffsort} package's {@code execute_sort}.
 */
public enum SwapSigmoid {
    /** f(v) = 1 / (1 + e^-v) (2021 paper; not monotonic as a sorting network, 2022 Sec. 3). */
    LOGISTIC("logistic") {
        @Override
        public double value(double v) {
            return 1 / (1 + Math.exp(-v));
        }

        @Override
        public double derivative(double v) {
            double f = value(v);
            return f * (1 - f);
        }
    },
    /** f(v) = atan(v) / pi + 1/2, the Cauchy CDF (2022 paper, Eq. 12): monotonic, error-bounded. */
    CAUCHY("cauchy") {
        @Override
        public double value(double v) {
            return Math.atan(v) / Math.PI + 0.5;
        }

        @Override
        public double derivative(double v) {
            return 1 / (Math.PI * (1 + v * v));
        }
    },
    /**
     * The optimal monotonic sigmoid (2022 paper, Eq. 13): v + 1/2 on |v| &lt;= 1/4, 1 - 1/(16 v)
     * above, -1/(16 v) below; as in {@code diffsort}, |v| is shifted by 1e-10 in the tails.
     */
    OPTIMAL("optimal") {
        @Override
        public double value(double v) {
            double clamped = Math.max(-0.25, Math.min(0.25, v));
            double side = (v > 0.25 ? 1 : 0) - (v < -0.25 ? 1 : 0);
            return clamped + 0.5 + side * (0.25 - 1 / 16.0 / (Math.abs(v) + 1e-10));
        }

        @Override
        public double derivative(double v) {
            // The clamp passes the gradient on the closed interval, as PyTorch's clamp does.
            if (v >= -0.25 && v <= 0.25) {
                return 1;
            }
            double a = Math.abs(v) + 1e-10;
            return 1 / (16 * a * a);
        }
    };

    private final String key;

    SwapSigmoid(String key) {
        this.key = key;
    }

    /** f(v). */
    public abstract double value(double v);

    /** f'(v). */
    public abstract double derivative(double v);

    /** The name the loss registry and {@code diffsort} use: "logistic", "cauchy" or "optimal". */
    public String key() {
        return key;
    }

    /** The sigmoid called {@code key} ({@link #key()}). */
    public static SwapSigmoid of(String key) {
        for (SwapSigmoid f : values()) {
            if (f.key.equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown sorting-network sigmoid '" + key
                + "'; the sigmoids are logistic, cauchy, optimal");
    }
}
