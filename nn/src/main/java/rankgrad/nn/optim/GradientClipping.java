package rankgrad.nn.optim;

import java.util.Collection;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * Gradient-norm clipping over all parameters together (Pascanu et al. 2013, Algorithm 1; PyTorch's
 * {@code clip_grad_norm_}): with the global norm ||g|| = sqrt(sum over parameters and elements of
 * g^2), every gradient is multiplied by maxNorm / (||g|| + 1e-6) when ||g|| &gt; maxNorm, so the
 * direction is kept and the norm becomes (just under) maxNorm.
 *
 * <pre>{@code
 * loss.backward();
 * double norm = GradientClipping.clipGlobalNorm(model.parameters(), 5.0);
 * optimizer.step();
 * }</pre>
 *
 * <p>The norm is accumulated in double in parameter order (deterministic). Gradients are never
 * modified in place (the engine may share one gradient tensor between nodes): a clipped parameter
 * gets a new, scaled gradient tensor.
 */
public final class GradientClipping {
    /** PyTorch's guard against division by a zero norm. */
    private static final double NORM_GUARD = 1e-6;

    private GradientClipping() {
    }

    /** sqrt(sum of squares of all gradient elements); parameters without a gradient count as 0. */
    public static double globalNorm(Collection<Var> parameters) {
        double sum = 0;
        for (Var p : parameters) {
            Tensor g = p.grad();
            if (g == null) {
                continue;
            }
            if (g.dtype() == DType.F32) {
                for (float v : g.f32()) {
                    sum += (double) v * v;
                }
            } else {
                for (double v : g.f64()) {
                    sum += v * v;
                }
            }
        }
        return Math.sqrt(sum);
    }

    /**
     * Scales all gradients so that their global norm is at most {@code maxNorm}.
     *
     * @return the global norm before clipping; when it is NaN or infinite nothing is changed, so
     *     the caller can report the bad step
     */
    public static double clipGlobalNorm(Collection<Var> parameters, double maxNorm) {
        if (!(maxNorm > 0) || !Double.isFinite(maxNorm)) {
            throw new IllegalArgumentException("maximum gradient norm must be positive and finite, got " + maxNorm);
        }
        double norm = globalNorm(parameters);
        if (!Double.isFinite(norm) || norm <= maxNorm) {
            return norm;
        }
        double scale = maxNorm / (norm + NORM_GUARD);
        for (Var p : parameters) {
            Tensor g = p.grad();
            if (g == null) {
                continue;
            }
            Tensor scaled = Tensor.zerosLike(g);
            for (int i = 0; i < g.size(); i++) {
                scaled.set(i, g.get(i) * scale);
            }
            // On a leaf, backward(seed) after zeroGrad() makes seed its gradient: the engine's
            // public way to replace a gradient without writing into the old tensor.
            p.zeroGrad();
            p.backward(scaled);
        }
        return norm;
    }
}
