package rankgrad.nn.optim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.kernels.AdamCoefficients;
import rankgrad.nn.kernels.NnKernelProvider;

/**
 * Adam (Kingma and Ba 2015, Algorithm 1) with L2 weight decay as the papers use it (Yu et al. Sec.
 * 6.2: Adam, learning rate 1e-3, L2 1e-3), or AdamW's decoupled decay (Loshchilov and Hutter 2019,
 * Algorithm 2). Per parameter p with gradient g, at its step t = 1, 2, ...:
 *
 * <pre>
 *   g = g + lambda p                     (L2, PyTorch's Adam(weight_decay=lambda))
 *   p = p (1 - lr lambda)                (instead, when decoupled: PyTorch's AdamW)
 *   m = beta1 m + (1 - beta1) g
 *   v = beta2 v + (1 - beta2) g^2
 *   p = p - (lr / (1 - beta1^t)) m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * </pre>
 *
 * which is PyTorch's arithmetic (eps added after the bias correction of sqrt(v)). float32
 * parameters are updated in float32 in one fused pass per tensor by {@code NnKernels.adamF32} (SIMD
 * when available, the same bits either way); gradients are read, never written.
 *
 * <p>Subnormal results (|x| below {@code Float.MIN_NORMAL}, or {@code Double.MIN_NORMAL}) of p, m
 * and v are stored as 0, as a CPU in flush-to-zero mode would: a weight that no longer receives a
 * loss gradient (its input unit is dead) but does receive L2 decays ever faster (the remembered v
 * shrinks with it) until it lands in the subnormal range, where lambda p underflows and m reaches
 * 0, so it stays there for good. Every matrix product that reads such weights then runs on x86's
 * slow subnormal path: a network trained with one query per step slowed from 1.5 s to 15 s per
 * epoch within eight epochs. Values that small carry nothing next to normal weights.
 *
 * <p>State for checkpoints ({@link #state()}): {@code step.<name>}, {@code exp_avg.<name>},
 * {@code exp_avg_sq.<name>}, PyTorch's names.
 */
public final class Adam implements Optimizer {

    /**
     * Hyper-parameters.
     *
     * @param learningRate lr &gt; 0
     * @param beta1 decay of the first moment, in [0, 1)
     * @param beta2 decay of the second moment, in [0, 1)
     * @param eps added to the denominator, &gt;= 0
     * @param weightDecay lambda &gt;= 0
     * @param decoupledWeightDecay AdamW (decay the weights) instead of L2 (add lambda p to the gradient)
     */
    public record Settings(double learningRate, double beta1, double beta2, double eps, double weightDecay,
            boolean decoupledWeightDecay) {
        public Settings {
            checkLearningRate(learningRate);
            if (!(beta1 >= 0 && beta1 < 1) || !(beta2 >= 0 && beta2 < 1)) {
                throw new IllegalArgumentException("Adam betas must be in [0, 1), got " + beta1 + ", " + beta2);
            }
            if (!(eps >= 0) || !Double.isFinite(eps)) {
                throw new IllegalArgumentException("Adam eps must be >= 0 and finite, got " + eps);
            }
            if (!(weightDecay >= 0) || !Double.isFinite(weightDecay)) {
                throw new IllegalArgumentException("weight decay must be >= 0 and finite, got " + weightDecay);
            }
        }

        /** PyTorch's defaults: lr 1e-3, betas (0.9, 0.999), eps 1e-8, no weight decay. */
        public static Settings defaults() {
            return new Settings(1e-3, 0.9, 0.999, 1e-8, 0.0, false);
        }

        public Settings withLearningRate(double lr) {
            return new Settings(lr, beta1, beta2, eps, weightDecay, decoupledWeightDecay);
        }

        public Settings withBetas(double b1, double b2) {
            return new Settings(learningRate, b1, b2, eps, weightDecay, decoupledWeightDecay);
        }

        public Settings withEps(double e) {
            return new Settings(learningRate, beta1, beta2, e, weightDecay, decoupledWeightDecay);
        }

        /** L2 regularization: lambda p added to the gradient (Adam with weight_decay). */
        public Settings withWeightDecay(double lambda) {
            return new Settings(learningRate, beta1, beta2, eps, lambda, false);
        }

        /** Decoupled weight decay: p scaled by (1 - lr lambda) each step (AdamW). */
        public Settings withDecoupledWeightDecay(double lambda) {
            return new Settings(learningRate, beta1, beta2, eps, lambda, true);
        }
    }

    private final ParameterSet params;
    private final Tensor[] steps;
    private final Tensor[] expAvg;
    private final Tensor[] expAvgSq;
    private final Map<String, Tensor> state;
    private Settings settings;

    private Adam(ParameterSet params, Settings settings) {
        this.params = params;
        this.settings = settings;
        int n = params.size();
        steps = new Tensor[n];
        expAvg = new Tensor[n];
        expAvgSq = new Tensor[n];
        Map<String, Tensor> s = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            Tensor p = params.vars[i].value();
            steps[i] = Tensor.scalar(DType.F64, 0);
            expAvg[i] = Tensor.zerosLike(p);
            expAvgSq[i] = Tensor.zerosLike(p);
            s.put("step." + params.names[i], steps[i]);
            s.put("exp_avg." + params.names[i], expAvg[i]);
            s.put("exp_avg_sq." + params.names[i], expAvgSq[i]);
        }
        state = Collections.unmodifiableMap(s);
    }

    /** Adam over named parameters (e.g. {@code Layer.namedParameters()}). */
    public static Adam create(Map<String, Var> parameters, Settings settings) {
        return new Adam(ParameterSet.of(parameters), settings);
    }

    /** Adam over parameters named "0", "1", ... in list order. */
    public static Adam create(List<Var> parameters, Settings settings) {
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
        settings = settings.withLearningRate(learningRate);
    }

    @Override
    public void step() {
        for (int i = 0; i < params.size(); i++) {
            Var p = params.vars[i];
            Tensor g = p.grad();
            if (g == null) {
                continue;
            }
            double t = steps[i].get(0) + 1;
            steps[i].set(0, t);
            if (p.dtype() == DType.F32) {
                updateF32(p.value().f32(), g.f32(), expAvg[i].f32(), expAvgSq[i].f32(), t);
            } else {
                updateF64(p.value().f64(), g.f64(), expAvg[i].f64(), expAvgSq[i].f64(), t);
            }
        }
    }

    private void updateF32(float[] p, float[] g, float[] m, float[] v, double t) {
        Settings s = settings;
        boolean decoupled = s.decoupledWeightDecay();
        NnKernelProvider.kernels().adamF32(p, g, m, v, p.length, new AdamCoefficients(
                decoupled ? (float) (1 - s.learningRate() * s.weightDecay()) : 1f,
                decoupled ? 0f : (float) s.weightDecay(),
                (float) s.beta1(), (float) (1 - s.beta1()), (float) s.beta2(), (float) (1 - s.beta2()),
                (float) (s.learningRate() / (1 - Math.pow(s.beta1(), t))), (float) Math.sqrt(1 - Math.pow(s.beta2(), t)),
                (float) s.eps()));
    }

    private void updateF64(double[] p, double[] g, double[] m, double[] v, double t) {
        Settings s = settings;
        double stepSize = s.learningRate() / (1 - Math.pow(s.beta1(), t));
        double bc2Sqrt = Math.sqrt(1 - Math.pow(s.beta2(), t));
        double l2 = s.decoupledWeightDecay() ? 0 : s.weightDecay();
        double shrink = s.decoupledWeightDecay() ? 1 - s.learningRate() * s.weightDecay() : 1;
        for (int j = 0; j < p.length; j++) {
            double pj = p[j] * shrink;
            double gj = g[j] + l2 * pj;
            double mj = m[j] * s.beta1() + (1 - s.beta1()) * gj;
            double vj = v[j] * s.beta2() + (1 - s.beta2()) * gj * gj;
            m[j] = flush(mj);
            v[j] = flush(vj);
            p[j] = flush(pj - stepSize * (mj / (Math.sqrt(vj) / bc2Sqrt + s.eps())));
        }
    }

    /** 0 for a subnormal x (see the class comment), x otherwise. */
    static double flush(double x) {
        return Math.abs(x) < Double.MIN_NORMAL ? 0.0 : x;
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
        ParameterSet.load(state, source, "Adam");
    }

    static void checkLearningRate(double lr) {
        if (!(lr > 0) || !Double.isFinite(lr)) {
            throw new IllegalArgumentException("learning rate must be positive and finite, got " + lr);
        }
    }
}
