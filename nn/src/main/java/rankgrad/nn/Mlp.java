package rankgrad.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Workspace;
import rankgrad.nn.ops.AffineBatchNormRelu;

/**
 * A multi-layer perceptron, the scoring network of the papers: for widths w_0 = input, w_1 .. w_k
 * hidden, w_{k+1} = output,
 *
 * <pre>
 *   [BatchNorm(w_0)]                                    if inputBatchNorm (Bruch et al. Sec. 3.1)
 *   Linear(w_{l-1}, w_l), [BatchNorm(w_l)], f, [Dropout] for each hidden layer l = 1..k
 *   Linear(w_k, w_{k+1}), [[BatchNorm(w_{k+1})], f]     f (and its batch norm) if lastActivated
 * </pre>
 *
 * with batch normalization between each linear layer and its activation f when {@code batchNorm}
 * is on, as PT-Ranking builds Yu et al.'s networks. Examples: Yu et al. Sec. 6.2 R4.L is hidden
 * 100 x 4, ReLU, batch norm, last layer linear, output 1 (R5: last layer activated; CE: CELU);
 * Bruch et al. Sec. 3.4 B128 is hidden 128, 64, 32, 16 with ReLU and batch norm, input batch norm
 * on; no hidden layer gives a linear model.
 *
 * <p>Dropout (rate p &gt; 0, training mode only) sits after each hidden activation, as in DASALC
 * (Qin et al. 2021) and PyTorch's usual Linear, BatchNorm, ReLU, Dropout blocks; never after the
 * output layer. The dropout modules are not children of {@code layers}: they have no state, so
 * parameter names and the layer list (what exports fold) are those of the same network without
 * dropout. Masks come from (seed, step) ({@link Dropout}); set the step with
 * {@link #setDropoutStep} before each training forward pass.
 *
 * <p>Modules are children of a {@link Sequential} named {@code layers}, so parameter names are
 * {@code layers.<index>.weight} etc. Weights are drawn layer by layer from one
 * {@link SplittableRandom} seeded with {@code seed}: one spec gives one network.
 *
 * <pre>{@code
 * Mlp r4l = Mlp.builder(136).hidden(100, 100, 100, 100).activation(Activation.relu())
 *         .batchNorm(true).lastActivated(false).output(1).seed(42).build();
 * }</pre>
 */
public final class Mlp implements Layer {

    /**
     * Everything that determines an MLP (stored in model files to rebuild it).
     *
     * @param inputWidth features per row
     * @param hiddenWidths widths of the hidden layers, possibly none
     * @param activation f, applied after each hidden layer (and the last if {@code lastActivated})
     * @param batchNorm batch normalization between each linear layer and its activation
     * @param inputBatchNorm batch normalization of the input features
     * @param batchNormMomentum momentum of every batch norm's running statistics (PyTorch
     *     convention, default 0.1; see {@link BatchNorm1d})
     * @param lastActivated whether the output layer is followed by f
     * @param outputWidth outputs per row (1 for a scoring function)
     * @param init weight initialization of the linear layers (biases start at 0)
     * @param dtype parameter dtype
     * @param seed seed of the weight initialization (and of the dropout masks)
     * @param dropout dropout rate after each hidden activation in training mode, in [0, 1); 0 = none
     */
    public record Spec(int inputWidth, List<Integer> hiddenWidths, Activation activation, boolean batchNorm,
            boolean inputBatchNorm, double batchNormMomentum, boolean lastActivated, int outputWidth, Init init,
            DType dtype, long seed, double dropout) {
        public Spec {
            if (!(dropout >= 0 && dropout < 1)) {
                throw new IllegalArgumentException("the dropout rate must be in [0, 1), got " + dropout);
            }
            hiddenWidths = List.copyOf(hiddenWidths);
            Objects.requireNonNull(activation, "activation");
            Objects.requireNonNull(init, "init");
            Objects.requireNonNull(dtype, "dtype");
            if (inputWidth < 1 || outputWidth < 1 || hiddenWidths.stream().anyMatch(w -> w < 1)) {
                throw new IllegalArgumentException("MLP widths must be positive: input " + inputWidth + ", hidden "
                        + hiddenWidths + ", output " + outputWidth);
            }
        }

        /** A spec without dropout. */
        public Spec(int inputWidth, List<Integer> hiddenWidths, Activation activation, boolean batchNorm,
                boolean inputBatchNorm, double batchNormMomentum, boolean lastActivated, int outputWidth, Init init,
                DType dtype, long seed) {
            this(inputWidth, hiddenWidths, activation, batchNorm, inputBatchNorm, batchNormMomentum, lastActivated,
                    outputWidth, init, dtype, seed, 0.0);
        }

        /** This spec with another dropout rate (the same weights: the rate draws no random numbers at init). */
        public Spec withDropout(double rate) {
            return new Spec(inputWidth, hiddenWidths, activation, batchNorm, inputBatchNorm, batchNormMomentum,
                    lastActivated, outputWidth, init, dtype, seed, rate);
        }
    }

    private final Spec spec;
    private final Sequential layers;
    private final Map<String, Var> parameters;
    private final Map<String, Tensor> buffers;
    private final Workspace workspace = new Workspace();
    /** For each module of {@code layers}, the dropout applied after it (null for none). */
    private final Dropout[] dropoutAfter;

    private Mlp(Spec spec) {
        this.spec = spec;
        SplittableRandom rng = new SplittableRandom(spec.seed());
        List<Layer> modules = new ArrayList<>();
        List<Integer> hiddenActivations = new ArrayList<>();
        if (spec.inputBatchNorm()) {
            modules.add(batchNorm(spec, spec.inputWidth()));
        }
        int width = spec.inputWidth();
        for (int h : spec.hiddenWidths()) {
            modules.add(Linear.create(width, h, spec.init(), rng, spec.dtype()));
            if (spec.batchNorm()) {
                modules.add(batchNorm(spec, h));
            }
            modules.add(spec.activation());
            hiddenActivations.add(modules.size() - 1);
            width = h;
        }
        modules.add(Linear.create(width, spec.outputWidth(), spec.init(), rng, spec.dtype()));
        if (spec.lastActivated()) {
            if (spec.batchNorm()) {
                modules.add(batchNorm(spec, spec.outputWidth()));
            }
            modules.add(spec.activation());
        }
        this.layers = Sequential.of(modules);
        this.dropoutAfter = new Dropout[modules.size()];
        if (spec.dropout() > 0) {
            for (int l = 0; l < hiddenActivations.size(); l++) {
                dropoutAfter[hiddenActivations.get(l)] = Dropout.create(spec.dropout(), spec.seed() + 0x5DEECE66DL * (l + 1));
            }
        }
        Map<String, Var> p = new LinkedHashMap<>();
        layers.namedParameters().forEach((name, v) -> p.put("layers." + name, v));
        Map<String, Tensor> b = new LinkedHashMap<>();
        layers.namedBuffers().forEach((name, t) -> b.put("layers." + name, t));
        this.parameters = Collections.unmodifiableMap(p);
        this.buffers = Collections.unmodifiableMap(b);
    }

    private static BatchNorm1d batchNorm(Spec spec, int features) {
        return BatchNorm1d.create(features, spec.dtype(), BatchNorm1d.DEFAULT_EPS, spec.batchNormMomentum());
    }

    /** Builds the network described by {@code spec}. */
    public static Mlp create(Spec spec) {
        return new Mlp(spec);
    }

    /** A builder for a network with {@code inputWidth} input features. */
    public static Builder builder(int inputWidth) {
        return new Builder(inputWidth);
    }

    public Spec spec() {
        return spec;
    }

    /** The layers, in order. */
    public Sequential layers() {
        return layers;
    }

    /**
     * Applies the network. In training mode, each Linear, BatchNorm, ReLU triple runs as one
     * {@link AffineBatchNormRelu} node (the same bits as the three modules one after the other,
     * which {@code layers().forward(x)} runs), and while a graph is being recorded the tensors that
     * stay inside the network (each hidden layer's pre-activation and output, the gradients between
     * its layers) come from this network's {@link Workspace}, so that steps of equal batch size
     * reuse them instead of allocating.
     *
     * <p>Why a recycled tensor is never one the caller can see: the workspace only holds a hidden
     * layer's output when the next module (another fused layer or a Linear) is its only consumer,
     * and the gradient flowing into such an output; both are given back at the end of the backward
     * of the node that read them last, which the reverse topological order runs after every other
     * reader. The returned output, the parameters and their gradients, and the gradient of an input
     * that requires one are always fresh tensors.
     */
    @Override
    public Var forward(Var x) {
        List<Layer> ms = layers.modules();
        Workspace ws = NoGrad.active() ? null : workspace;
        Var h = x;
        // True when h is the workspace-held output of a fused layer, whose backward gives back dh.
        boolean internal = false;
        int i = 0;
        while (i < ms.size()) {
            Layer m = ms.get(i);
            if (i + 2 < ms.size() && m instanceof Linear lin && ms.get(i + 1) instanceof BatchNorm1d bn
                    && bn.isTraining() && ms.get(i + 2) instanceof Activation.Relu) {
                lin.checkInput(h);
                boolean last = i + 3 == ms.size();
                // A dropout between this layer and the next Linear is a second reader of the output, which
                // the workspace must then not lend (its single consumer must be the next Linear).
                boolean lend = !last && dropoutAfter[i + 2] == null;
                AffineBatchNormRelu op = ws == null ? AffineBatchNormRelu.of(bn.eps(), bn::updateRunningStatistics)
                        : AffineBatchNormRelu.inWorkspace(bn.eps(), bn::updateRunningStatistics, ws, lend, internal);
                h = Var.apply(op, h, lin.weight(), lin.bias(), bn.weight(), bn.bias());
                internal = ws != null && lend;
                i += 3;
            } else {
                h = internal && m instanceof Linear lin ? lin.forward(h, ws) : m.forward(h);
                internal = false;
                i++;
            }
            if (dropoutAfter[i - 1] != null) {
                h = dropoutAfter[i - 1].forward(h);
            }
        }
        return h;
    }

    /**
     * Selects the dropout masks of the following training forward passes: those of optimizer step
     * {@code step} (no effect without dropout).
     */
    public void setDropoutStep(long step) {
        for (Dropout d : dropoutAfter) {
            if (d != null) {
                d.setStep(step);
            }
        }
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public Map<String, Tensor> namedBuffers() {
        return buffers;
    }

    @Override
    public void setTraining(boolean training) {
        layers.setTraining(training);
        for (Dropout d : dropoutAfter) {
            if (d != null) {
                d.setTraining(training);
            }
        }
    }

    @Override
    public String toString() {
        return "Mlp" + layers.modules();
    }

    /**
     * Collects a {@link Spec}. Defaults: no hidden layer, ReLU, no batch norm (momentum 0.1 when
     * on), last layer linear, output width 1, Kaiming uniform init, float32, seed 0, no dropout.
     */
    public static final class Builder {
        private final int inputWidth;
        private List<Integer> hidden = List.of();
        private Activation activation = Activation.relu();
        private boolean batchNorm;
        private boolean inputBatchNorm;
        private double batchNormMomentum = BatchNorm1d.DEFAULT_MOMENTUM;
        private boolean lastActivated;
        private int outputWidth = 1;
        private Init init = Init.KAIMING_UNIFORM;
        private DType dtype = DType.F32;
        private long seed;
        private double dropout;

        private Builder(int inputWidth) {
            this.inputWidth = inputWidth;
        }

        public Builder hidden(int... widths) {
            List<Integer> w = new ArrayList<>();
            for (int x : widths) {
                w.add(x);
            }
            this.hidden = w;
            return this;
        }

        public Builder activation(Activation activation) {
            this.activation = activation;
            return this;
        }

        public Builder batchNorm(boolean on) {
            this.batchNorm = on;
            return this;
        }

        public Builder inputBatchNorm(boolean on) {
            this.inputBatchNorm = on;
            return this;
        }

        public Builder batchNormMomentum(double momentum) {
            this.batchNormMomentum = momentum;
            return this;
        }

        public Builder lastActivated(boolean on) {
            this.lastActivated = on;
            return this;
        }

        public Builder output(int width) {
            this.outputWidth = width;
            return this;
        }

        public Builder init(Init init) {
            this.init = init;
            return this;
        }

        public Builder dtype(DType dtype) {
            this.dtype = dtype;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Dropout of {@code rate} after each hidden activation in training mode (0 = none). */
        public Builder dropout(double rate) {
            this.dropout = rate;
            return this;
        }

        public Spec spec() {
            return new Spec(inputWidth, hidden, activation, batchNorm, inputBatchNorm, batchNormMomentum, lastActivated,
                    outputWidth, init, dtype, seed, dropout);
        }

        public Mlp build() {
            return Mlp.create(spec());
        }
    }
}
