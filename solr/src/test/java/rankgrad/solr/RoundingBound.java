package rankgrad.solr;

import java.util.List;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.RankingModel;
import rankgrad.nn.Layer;
import rankgrad.nn.Linear;

/**
 * The largest float32 rounding difference allowed between two evaluations of one model's score
 * that differ only in rounding: rankgrad's (batch normalization as its own step, its GEMM) and
 * Solr's NeuralNetworkModel of the export (batch normalization folded into weights rounded once to
 * float32, each dot product summed left to right in float32, the standardization as Solr
 * StandardNormalizers). The rounding error of a float32 sum of n terms is typically sqrt(n) u (sum
 * of |terms|), u = 2^-24 (errors add like a random walk: Higham, Accuracy and Stability of
 * Numerical Algorithms, Sec. 2.8), and each layer's error reaches the output in proportion; so the
 * bound is 4 u S (sum over the linear layers of sqrt(inputs)), S the sum of the absolute terms of
 * the output (the last layer's |w_i h_i| and |b|): 2 for two evaluations, 2 for margin. It is the
 * ONNX export test's bound (OnnxExportTest), for the same reason. A wrong fold, a wrong
 * standardization or a feature in the wrong column moves scores by a fair fraction of S,
 * thousands of times more.
 *
 * <p>Two evaluations of the same code can differ too: the Vector API kernels sum in lanes, so a
 * machine with other vector registers than the one that wrote the fixture rounds differently
 * (docs/library.md, the incubator flag). The same bound covers it.
 */
final class RoundingBound {
    private RoundingBound() {
    }

    /**
     * The bound of an ensemble's score, the mean of its members' scores: the mean of the members'
     * bounds (the rounding of the mean itself, at most u |s| &lt;= u S, is inside their margin of 2).
     */
    static double[] of(Ensemble ensemble, Query raw) {
        double[] out = new double[raw.docs()];
        for (RankingModel m : ensemble.members()) {
            double[] b = of(m, raw);
            for (int d = 0; d < out.length; d++) {
                out[d] += b[d] / ensemble.members().size();
            }
        }
        return out;
    }

    /**
     * The bound for each document of {@code raw} (a query's raw features) under {@code model},
     * which is switched to evaluation mode (batch normalization with its running statistics).
     */
    static double[] of(RankingModel model, Query raw) {
        model.eval();
        Query z = model.normalization().apply(model.transform().apply(raw));
        List<Layer> modules = model.network().layers().modules();
        int last = 0;
        double depth = 0;
        for (int i = 0; i < modules.size(); i++) {
            if (modules.get(i) instanceof Linear lin) {
                last = i;
                depth += Math.sqrt(lin.in());
            }
        }
        if (last + 1 != modules.size()) {
            throw new IllegalArgumentException(model.architecture() + ": the bound assumes a network ending in a linear layer");
        }
        Tensor h;
        try (NoGrad ignored = NoGrad.enter()) {
            Var v = Var.constant(Tensor.of(z.x(), z.docs(), z.features()));
            for (int i = 0; i < last; i++) {
                v = modules.get(i).forward(v);
            }
            h = v.value();
        }
        Linear output = (Linear) modules.get(last);
        double u = Math.ulp(1f) / 2;
        double[] bounds = new double[z.docs()];
        for (int d = 0; d < bounds.length; d++) {
            double scale = Math.abs(output.bias().value().get(0));
            for (int i = 0; i < output.in(); i++) {
                scale += Math.abs(output.weight().value().get(i) * h.get(d, i));
            }
            bounds[d] = 4 * u * scale * depth;
        }
        return bounds;
    }
}
