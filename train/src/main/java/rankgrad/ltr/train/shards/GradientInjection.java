package rankgrad.ltr.train.shards;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * A custom-gradient node that hands given gradients to its inputs: its value is 0 and its backward
 * returns the stored tensors, one per input (null leaves an input's gradient unset). Back-propagating
 * from it after {@code zeroGrad} leaves exactly these tensors, by reference, as the parameters'
 * gradients, so an {@link rankgrad.nn.optim.Optimizer} steps with gradients computed
 * elsewhere (summed over shards) as it steps with its own.
 */
final class GradientInjection implements Op<Void> {
    private final Tensor[] gradients;
    private final Tensor zero;

    GradientInjection(Tensor[] gradients, Tensor zero) {
        this.gradients = gradients.clone();
        this.zero = zero;
    }

    @Override
    public Result<Void> forward(Tensor... inputs) {
        return Op.result(zero, null);
    }

    @Override
    public Tensor[] backward(Void residuals, Tensor gradOutput, boolean[] needsGrad) {
        return gradients.clone();
    }

    @Override
    public String name() {
        return "GradientInjection";
    }
}
