package rankgrad.testkit;

import java.util.Arrays;
import java.util.stream.Collectors;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/**
 * One generated input of an {@link OpCase}: the sampled dimensions, indices drawn below the first
 * dimension (for ops that gather or slice), and the input tensors in float64.
 *
 * @param dims the dimensions d0, d1, d2 the input shapes were made from
 * @param picks d2 + 1 indices in [0, d0)
 * @param inputs the input values, float64
 */
public record OpExample(int[] dims, int[] picks, Tensor[] inputs) {

    /** The inputs converted to {@code dtype} (values rounded once for float32). */
    public Tensor[] inputs(DType dtype) {
        return Arrays.stream(inputs).map(t -> t.to(dtype)).toArray(Tensor[]::new);
    }

    @Override
    public String toString() {
        return "dims " + Arrays.toString(dims) + ", picks " + Arrays.toString(picks) + ", inputs "
                + Arrays.stream(inputs)
                        .map(t -> Arrays.toString(t.shape()) + Arrays.toString(t.toDoubleArray()))
                        .collect(Collectors.joining(", "));
    }
}
