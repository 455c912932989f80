package rankgrad.nn;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.random.RandomGenerator;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Workspace;
import rankgrad.autodiff.ops.Primitives;

/**
 * A fully connected layer y = x W + b for a batch x (rows x in): W is stored in x out (the
 * transpose of PyTorch's {@code Linear.weight}), so forward is one plain GEMM, and the bias b of
 * length out is added to every row ({@link Ops#affine}, one fused node).
 *
 * <p>Parameters: {@code weight} (in x out) initialized by an {@link Init} from a seeded generator,
 * {@code bias} (out) initialized to 0.
 *
 * <pre>{@code
 * Linear layer = Linear.create(136, 100, Init.KAIMING_UNIFORM, new SplittableRandom(42), DType.F32);
 * Var h = layer.forward(Var.constant(features));
 * }</pre>
 */
public final class Linear implements Layer {
    private final int in;
    private final int out;
    private final Var weight;
    private final Var bias;
    private final Map<String, Var> parameters;

    private Linear(Tensor weight, Tensor bias) {
        this.in = weight.rows();
        this.out = weight.cols();
        this.weight = Var.param(weight).label("weight");
        this.bias = Var.param(bias).label("bias");
        Map<String, Var> p = new LinkedHashMap<>();
        p.put("weight", this.weight);
        p.put("bias", this.bias);
        this.parameters = Collections.unmodifiableMap(p);
    }

    /** A layer from {@code in} to {@code out} features, weights drawn by {@code init} from {@code rng}. */
    public static Linear create(int in, int out, Init init, RandomGenerator rng, DType dtype) {
        if (in < 1 || out < 1) {
            throw new IllegalArgumentException("a linear layer needs positive widths, got " + in + " -> " + out);
        }
        Tensor w = Tensor.zeros(dtype, in, out);
        init.fill(w, rng);
        return new Linear(w, Tensor.zeros(dtype, out));
    }

    /** A layer with the given weights (in x out) and bias (out), used as they are (not copied). */
    public static Linear of(Tensor weight, Tensor bias) {
        if (weight.rank() != 2 || bias.rank() != 1 || bias.size() != weight.cols() || weight.dtype() != bias.dtype()) {
            throw new IllegalArgumentException("a linear layer needs weights (in x out) and a bias of length out of "
                    + "one dtype, got " + weight.dtype() + Arrays.toString(weight.shape()) + " and "
                    + bias.dtype() + Arrays.toString(bias.shape()));
        }
        return new Linear(weight, bias);
    }

    /** Input width. */
    public int in() {
        return in;
    }

    /** Output width. */
    public int out() {
        return out;
    }

    /** The weight parameter, in x out. */
    public Var weight() {
        return weight;
    }

    /** The bias parameter, length out. */
    public Var bias() {
        return bias;
    }

    @Override
    public Var forward(Var x) {
        checkInput(x);
        return Ops.affine(x, weight, bias);
    }

    /** Forward with dX in {@code workspace}: for an input made by a node that gives dX back. */
    Var forward(Var x, Workspace workspace) {
        checkInput(x);
        return Var.apply(Primitives.affine(workspace), x, weight, bias);
    }

    void checkInput(Var x) {
        Tensor v = x.value();
        if (v.rank() != 2 || v.cols() != in) {
            throw new IllegalArgumentException("linear layer " + in + " -> " + out + " needs a matrix with " + in
                    + " columns, got shape " + Arrays.toString(v.shape()));
        }
        if (v.dtype() != weight.dtype()) {
            throw new IllegalArgumentException("linear layer is " + weight.dtype() + " but its input is " + v.dtype()
                    + "; convert the input with Tensor.to(DType." + weight.dtype() + ")");
        }
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public String toString() {
        return "Linear(" + in + " -> " + out + ")";
    }
}
