package rankgrad.nn;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.LayerNorm;

/**
 * Layer normalization of each row over its {@code width} features (Ba et al. 2016, Eq. 4):
 * y = weight (x - mean) / sqrt(var + eps) + bias, the {@link LayerNorm} op with a learned gain
 * ({@code weight}, starting at 1) and bias ({@code bias}, starting at 0), PyTorch's names. It
 * behaves the same in training and evaluation and reads no other row.
 */
public final class LayerNorm1d implements Layer {
    /** PyTorch's default eps. */
    public static final double DEFAULT_EPS = 1e-5;

    private final int width;
    private final LayerNorm op;
    private final Var weight;
    private final Var bias;
    private final Map<String, Var> parameters;

    private LayerNorm1d(int width, DType dtype, double eps) {
        if (width < 1) {
            throw new IllegalArgumentException("layer norm needs a positive width, got " + width);
        }
        this.width = width;
        this.op = new LayerNorm(eps);
        this.weight = Var.param(Tensor.full(dtype, 1.0, width)).label("weight");
        this.bias = Var.param(Tensor.zeros(dtype, width)).label("bias");
        Map<String, Var> p = new LinkedHashMap<>();
        p.put("weight", weight);
        p.put("bias", bias);
        this.parameters = Collections.unmodifiableMap(p);
    }

    /** Layer normalization of rows of {@code width} features, eps {@value #DEFAULT_EPS}. */
    public static LayerNorm1d create(int width, DType dtype) {
        return new LayerNorm1d(width, dtype, DEFAULT_EPS);
    }

    /** Features per row. */
    public int width() {
        return width;
    }

    @Override
    public Var forward(Var x) {
        return Var.apply(op, x, weight, bias);
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public String toString() {
        return "LayerNorm1d(" + width + ")";
    }
}
