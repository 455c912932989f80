package rankgrad.nn.optim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.KernelProvider;

/**
 * Stochastic gradient descent with heavy-ball momentum and L2 weight decay, PyTorch's {@code SGD}
 * (no dampening, no Nesterov). Per parameter p with gradient g:
 *
 * <pre>
 *   d = g + lambda p
 *   b = mu b + d          (b starts at 0, so the first step has b = d)
 *   p = p - lr b          (p = p - lr d when mu = 0)
 * </pre>
 *
 * <p>State for checkpoints ({@link #state()}): {@code momentum_buffer.<name>} when mu &gt; 0.
 */
public final class Sgd implements Optimizer {

    /**
     * Hyper-parameters.
     *
     * @param learningRate lr &gt; 0
     * @param momentum mu in [0, 1)
     * @param weightDecay lambda &gt;= 0
     */
    public record Settings(double learningRate, double momentum, double weightDecay) {
        public Settings {
            Adam.checkLearningRate(learningRate);
            if (!(momentum >= 0 && momentum < 1)) {
                throw new IllegalArgumentException("SGD momentum must be in [0, 1), got " + momentum);
            }
            if (!(weightDecay >= 0) || !Double.isFinite(weightDecay)) {
                throw new IllegalArgumentException("weight decay must be >= 0 and finite, got " + weightDecay);
            }
        }

        /** Plain SGD with learning rate {@code lr}. */
        public static Settings of(double lr) {
            return new Settings(lr, 0, 0);
        }

        public Settings withMomentum(double mu) {
            return new Settings(learningRate, mu, weightDecay);
        }

        public Settings withWeightDecay(double lambda) {
            return new Settings(learningRate, momentum, lambda);
        }
    }

    private final ParameterSet params;
    private final Tensor[] buffers;
    private final Map<String, Tensor> state;
    private Settings settings;

    private Sgd(ParameterSet params, Settings settings) {
        this.params = params;
        this.settings = settings;
        buffers = new Tensor[params.size()];
        Map<String, Tensor> s = new LinkedHashMap<>();
        if (settings.momentum() > 0) {
            for (int i = 0; i < params.size(); i++) {
                buffers[i] = Tensor.zerosLike(params.vars[i].value());
                s.put("momentum_buffer." + params.names[i], buffers[i]);
            }
        }
        state = Collections.unmodifiableMap(s);
    }

    /** SGD over named parameters (e.g. {@code Layer.namedParameters()}). */
    public static Sgd create(Map<String, Var> parameters, Settings settings) {
        return new Sgd(ParameterSet.of(parameters), settings);
    }

    /** SGD over parameters named "0", "1", ... in list order. */
    public static Sgd create(List<Var> parameters, Settings settings) {
        return create(ParameterSet.numbered(parameters), settings);
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public double learningRate() {
        return settings.learningRate();
    }

    @Override
    public void setLearningRate(double learningRate) {
        settings = new Settings(learningRate, settings.momentum(), settings.weightDecay());
    }

    @Override
    public void step() {
        Settings s = settings;
        for (int i = 0; i < params.size(); i++) {
            Var p = params.vars[i];
            Tensor g = p.grad();
            if (g == null) {
                continue;
            }
            if (p.dtype() == DType.F32) {
                float[] ps = p.value().f32();
                float[] gs = g.f32();
                float lr = (float) s.learningRate();
                if (buffers[i] == null && s.weightDecay() == 0) {
                    KernelProvider.kernels().axpyF32(-lr, gs, 0, ps, 0, ps.length);
                    continue;
                }
                float[] bs = buffers[i] == null ? null : buffers[i].f32();
                float mu = (float) s.momentum();
                float wd = (float) s.weightDecay();
                for (int j = 0; j < ps.length; j++) {
                    float d = gs[j] + wd * ps[j];
                    if (bs != null) {
                        d = mu * bs[j] + d;
                        bs[j] = d;
                    }
                    ps[j] -= lr * d;
                }
            } else {
                double[] ps = p.value().f64();
                double[] gs = g.f64();
                double[] bs = buffers[i] == null ? null : buffers[i].f64();
                for (int j = 0; j < ps.length; j++) {
                    double d = gs[j] + s.weightDecay() * ps[j];
                    if (bs != null) {
                        d = s.momentum() * bs[j] + d;
                        bs[j] = d;
                    }
                    ps[j] -= s.learningRate() * d;
                }
            }
        }
    }

    @Override
    public void zeroGrad() {
        params.zeroGrad();
    }

    @Override
    public Map<String, Tensor> state() {
        return state;
    }

    @Override
    public void loadState(Map<String, Tensor> source) {
        ParameterSet.load(state, source, "SGD");
    }
}
