package rankgrad.ltr.train;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import rankgrad.autodiff.Var;
import rankgrad.nn.optim.Adam;
import rankgrad.nn.optim.Optimizer;
import rankgrad.nn.optim.Sgd;

/**
 * The optimizer a {@link Trainer} updates the weights with, chosen in {@link TrainingConfig}; each
 * takes the configuration's learning rate lr and weight decay lambda (PyTorch's arithmetic):
 * <ul>
 *   <li>{@link #ADAM}: Adam with L2, lambda p added to the gradient (Yu et al. Sec. 6.2; the
 *       default);
 *   <li>{@link #ADAMW}: Adam with decoupled decay, p scaled by (1 - lr lambda) each step
 *       (Loshchilov and Hutter 2019);
 *   <li>{@link #SGD}: plain SGD, p -= lr (g + lambda p), no momentum.
 * </ul>
 */
public enum OptimizerKind {
    ADAM, ADAMW, SGD;

    /** The optimizer over {@code parameters} with learning rate {@code lr} and weight decay {@code lambda}. */
    public Optimizer create(Map<String, Var> parameters, double lr, double lambda) {
        return switch (this) {
            case ADAM -> Adam.create(parameters, Adam.Settings.defaults().withLearningRate(lr).withWeightDecay(lambda));
            case ADAMW -> Adam.create(parameters, Adam.Settings.defaults().withLearningRate(lr)
                    .withDecoupledWeightDecay(lambda));
            case SGD -> Sgd.create(parameters, Sgd.Settings.of(lr).withWeightDecay(lambda));
        };
    }

    /** The name in model files and on the command line: "adam", "adamw", "sgd". */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The optimizer called {@code name} (any capitalization of {@link #label()}).
     *
     * @throws IllegalArgumentException naming the choices, for an unknown name
     */
    public static OptimizerKind parse(String name) {
        for (OptimizerKind k : values()) {
            if (k.label().equalsIgnoreCase(name.strip())) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown optimizer '" + name + "'; choose one of "
                + Arrays.stream(values()).map(OptimizerKind::label).toList());
    }
}
