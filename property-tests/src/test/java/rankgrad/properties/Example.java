package rankgrad.properties;

import java.util.Arrays;
import java.util.stream.Collectors;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/**
 * One generated input of an op case: the sampled dimensions, indices drawn below the first
 * dimension (for gather and slice), and the input tensors in float64.
 */
record Example(int[] dims, int[] picks, Tensor[] inputs) {

    /** The inputs converted to {@code dtype} (values rounded once for float32). */
    Tensor[] inputs(DType dtype) {
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
