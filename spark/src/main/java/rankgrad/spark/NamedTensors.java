package rankgrad.spark;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/**
 * Named tensors as plain arrays, to travel between the driver and the executors (a broadcast
 * model state, a shard's gradient): name order, shapes and every bit of the values are kept; a
 * null tensor (a parameter no gradient reached) stays null.
 */
record NamedTensors(String[] names, int[][] shapes, float[][] f32, double[][] f64) implements Serializable {

    static NamedTensors of(Map<String, Tensor> tensors) {
        int n = tensors.size();
        String[] names = new String[n];
        int[][] shapes = new int[n][];
        float[][] f32 = new float[n][];
        double[][] f64 = new double[n][];
        int i = 0;
        for (Map.Entry<String, Tensor> e : tensors.entrySet()) {
            names[i] = e.getKey();
            Tensor t = e.getValue();
            if (t != null) {
                shapes[i] = t.shape().clone();
                if (t.dtype() == DType.F32) {
                    f32[i] = t.f32().clone();
                } else {
                    f64[i] = t.f64().clone();
                }
            }
            i++;
        }
        return new NamedTensors(names, shapes, f32, f64);
    }

    /** The tensors, in their order (fresh tensors, owned by the caller). */
    Map<String, Tensor> toMap() {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (int i = 0; i < names.length; i++) {
            Tensor t = null;
            if (shapes[i] != null) {
                t = f32[i] != null ? Tensor.of(f32[i].clone(), shapes[i]) : Tensor.of(f64[i].clone(), shapes[i]);
            }
            out.put(names[i], t);
        }
        return out;
    }
}
