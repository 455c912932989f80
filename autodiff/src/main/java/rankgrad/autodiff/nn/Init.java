package rankgrad.autodiff.nn;

import java.util.random.RandomGenerator;
import rankgrad.autodiff.Tensor;

/**
 * Weight initializations of a fully connected layer with fan-in {@code in} and fan-out
 * {@code out}, drawing i.i.d. values from a seeded {@link RandomGenerator}:
 *
 * <ul>
 *   <li>Kaiming / He (He et al. 2015, Eq. 10), for ReLU networks: variance 2 / in; uniform on
 *       [-sqrt(6 / in), sqrt(6 / in)] or normal with standard deviation sqrt(2 / in). This is
 *       PyTorch's {@code kaiming_*_(w, nonlinearity='relu')}.
 *   <li>Xavier / Glorot (Glorot and Bengio 2010, Eq. 16), for tanh, sigmoid and linear layers:
 *       variance 2 / (in + out); uniform on [-sqrt(6 / (in + out)), sqrt(6 / (in + out))] or normal
 *       with standard deviation sqrt(2 / (in + out)).
 * </ul>
 *
 * Values are drawn in row-major order of the (in x out) weight matrix, so one seed gives one
 * matrix.
 */
public enum Init {
    KAIMING_UNIFORM,
    KAIMING_NORMAL,
    XAVIER_UNIFORM,
    XAVIER_NORMAL;

    /** The variance of each weight. */
    public double variance(int in, int out) {
        return switch (this) {
            case KAIMING_UNIFORM, KAIMING_NORMAL -> 2.0 / in;
            case XAVIER_UNIFORM, XAVIER_NORMAL -> 2.0 / (in + out);
        };
    }

    /** Overwrites {@code w} (in x out) with fresh draws from {@code rng}. */
    public void fill(Tensor w, RandomGenerator rng) {
        int in = w.rows();
        int out = w.cols();
        double v = variance(in, out);
        boolean uniform = this == KAIMING_UNIFORM || this == XAVIER_UNIFORM;
        // A uniform on [-a, a] has variance a^2 / 3.
        double bound = Math.sqrt(3 * v);
        double std = Math.sqrt(v);
        for (int i = 0; i < w.size(); i++) {
            w.set(i, uniform ? rng.nextDouble(-bound, bound) : std * rng.nextGaussian());
        }
    }
}
