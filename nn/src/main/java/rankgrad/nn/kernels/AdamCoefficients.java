package rankgrad.nn.kernels;

/**
 * The per-step constants of {@link NnKernels#adamF32}, already in float32 (see {@code optim.Adam}).
 *
 * @param shrink factor on p before the step: 1 - lr lambda for decoupled decay (AdamW), else 1
 * @param l2 lambda added to the gradient as lambda p (Adam's L2), else 0
 * @param beta1 decay of the first moment
 * @param oneMinusBeta1 1 - beta1
 * @param beta2 decay of the second moment
 * @param oneMinusBeta2 1 - beta2
 * @param stepSize lr / (1 - beta1^t)
 * @param bc2Sqrt sqrt(1 - beta2^t)
 * @param eps added to the bias-corrected sqrt(v)
 */
public record AdamCoefficients(float shrink, float l2, float beta1, float oneMinusBeta1, float beta2, float oneMinusBeta2,
        float stepSize, float bc2Sqrt, float eps) {
}
