package rankgrad.nn.optim;

import java.util.Map;
import rankgrad.autodiff.Tensor;

/**
 * Updates a fixed set of named parameters from their gradients. The one place where the engine
 * writes into tensors after they were made: {@link #step()} updates each parameter's value in
 * place, so a model's {@code Var.param} leaves keep their identity across steps.
 *
 * <pre>{@code
 * Optimizer opt = Adam.create(model.namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
 * for (...) {
 *     opt.zeroGrad();
 *     loss(model.forward(x)).backward();
 *     opt.step();
 * }
 * }</pre>
 *
 * <p>Parameters without a gradient at a step (no path from the loss) are left alone, as in
 * PyTorch. Updates are elementwise in a fixed order: results do not depend on the thread count.
 */
public interface Optimizer {

    /** Applies one update to every parameter that has a gradient. */
    void step();

    /** Clears the gradients of all parameters. */
    void zeroGrad();

    /** The current learning rate. */
    double learningRate();

    /** Changes the learning rate for the following steps (for schedules). */
    void setLearningRate(double learningRate);

    /**
     * The optimizer's state by name (per-parameter buffers and step counts named after the
     * parameter), for checkpoints. Live tensors: serialize them, do not modify them.
     */
    Map<String, Tensor> state();

    /**
     * Copies a saved {@link #state()} into this optimizer, in place, so that training resumes
     * exactly; every entry must be present with its shape.
     */
    void loadState(Map<String, Tensor> state);
}
