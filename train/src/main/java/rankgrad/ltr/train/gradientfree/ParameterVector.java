package rankgrad.ltr.train.gradientfree;

import java.util.List;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.model.RankingModel;

/**
 * A network's trainable parameters seen as one flat vector theta = (p_1 row-major, p_2, ...), in
 * {@code Layer.parameters()} order: the search space of the gradient-free optimizers (Yue &amp;
 * Burges Sec. 4, where w in R^d is the net's weight vector). {@link #set} writes theta into the
 * parameter tensors in place (rounded to their dtype), so the model then scores with theta.
 *
 * <p>Not thread-safe: it aliases the model's parameter tensors.
 */
public final class ParameterVector {
    private final List<Var> parameters;
    private final int size;

    private ParameterVector(List<Var> parameters) {
        this.parameters = List.copyOf(parameters);
        long n = 0;
        for (Var p : this.parameters) {
            n += p.value().size();
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(n + " parameters do not fit one flat vector");
        }
        this.size = (int) n;
    }

    /** The parameters of {@code model}'s network. */
    public static ParameterVector of(RankingModel model) {
        return new ParameterVector(model.parameters());
    }

    /** The given parameters, in the given order. */
    public static ParameterVector of(List<Var> parameters) {
        return new ParameterVector(parameters);
    }

    /** d, the number of scalars in theta. */
    public int size() {
        return size;
    }

    /** A fresh copy of the current theta. */
    public double[] get() {
        double[] theta = new double[size];
        int at = 0;
        for (Var p : parameters) {
            Tensor t = p.value();
            for (int i = 0; i < t.size(); i++) {
                theta[at++] = t.get(i);
            }
        }
        return theta;
    }

    /** Writes {@code theta} (length {@link #size()}) into the parameters. */
    public void set(double[] theta) {
        if (theta.length != size) {
            throw new IllegalArgumentException("theta has " + theta.length + " values but the parameters have " + size);
        }
        int at = 0;
        for (Var p : parameters) {
            Tensor t = p.value();
            for (int i = 0; i < t.size(); i++) {
                t.set(i, theta[at++]);
            }
        }
    }
}
