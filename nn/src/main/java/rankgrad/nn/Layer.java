package rankgrad.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * A layer or a network: a differentiable function of one input with named state.
 *
 * <p>State has stable dotted names, as in PyTorch's {@code state_dict}: a container prefixes the
 * names of its children with theirs ({@code "layers.0.weight"}). Trainable parameters are
 * {@link Var#param} leaves that live as long as the module and are reused by every forward pass
 * (an optimizer updates their tensors in place; call {@code zeroGrad} between steps). Buffers are
 * non-trainable state updated by the module itself, such as BatchNorm's running statistics.
 *
 * <pre>{@code
 * Layer model = Mlp.builder(136).hidden(100, 100).activation(Activation.relu()).seed(7).build();
 * Var scores = model.forward(Var.constant(features));      // rows x 1
 * Map<String, Tensor> weights = model.state();             // for a model file
 * }</pre>
 *
 * <p>Thread-safety: a layer is used by one thread at a time.
 */
public interface Layer {

    /** Applies the module to a batch (one row per example). */
    Var forward(Var input);

    /** Trainable parameters by dotted name, in a stable order. */
    Map<String, Var> namedParameters();

    /** Non-trainable state by dotted name, in a stable order (empty by default). */
    default Map<String, Tensor> namedBuffers() {
        return Map.of();
    }

    /**
     * Training mode (the default) or evaluation mode; only modules whose behaviour differs (batch
     * normalization) keep the flag, containers pass it on to their children.
     */
    default void setTraining(boolean training) {
    }

    /** Switches to training mode and returns this module. */
    default Layer train() {
        setTraining(true);
        return this;
    }

    /** Switches to evaluation mode and returns this module. */
    default Layer eval() {
        setTraining(false);
        return this;
    }

    /** The trainable parameters in {@link #namedParameters()} order. */
    default List<Var> parameters() {
        return new ArrayList<>(namedParameters().values());
    }

    /** The number of trainable scalars. */
    default long parameterCount() {
        long n = 0;
        for (Var p : namedParameters().values()) {
            n += p.value().size();
        }
        return n;
    }

    /**
     * Every tensor of the module by name: the parameters' values, then the buffers. The tensors
     * are the live ones (not copies): serialize them, do not modify them.
     */
    default Map<String, Tensor> state() {
        Map<String, Tensor> out = new LinkedHashMap<>();
        namedParameters().forEach((name, p) -> out.put(name, p.value()));
        namedBuffers().forEach((name, t) -> {
            if (out.put(name, t) != null) {
                throw new IllegalStateException("a buffer and a parameter are both named '" + name + "'");
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * Copies {@code values} into this module's parameters and buffers, in place. Every name of
     * {@link #state()} must be present with the same shape; dtypes are converted.
     *
     * @throws IllegalArgumentException naming the first missing, unexpected or mis-shaped entry;
     *     nothing is copied then
     */
    default void loadState(Map<String, Tensor> values) {
        Map<String, Tensor> own = state();
        for (Map.Entry<String, Tensor> e : own.entrySet()) {
            Tensor v = values.get(e.getKey());
            if (v == null) {
                throw new IllegalArgumentException("state has no entry '" + e.getKey() + "' (expected "
                        + Arrays.toString(e.getValue().shape()) + "); it has " + values.keySet());
            }
            if (!v.sameShape(e.getValue())) {
                throw new IllegalArgumentException("state entry '" + e.getKey() + "' has shape "
                        + Arrays.toString(v.shape()) + ", the model needs " + Arrays.toString(e.getValue().shape()));
            }
        }
        for (String name : values.keySet()) {
            if (!own.containsKey(name)) {
                throw new IllegalArgumentException("state entry '" + name + "' does not exist in this model; it has "
                        + own.keySet());
            }
        }
        own.forEach((name, target) -> {
            Tensor v = values.get(name);
            for (int i = 0; i < target.size(); i++) {
                target.set(i, v.get(i));
            }
        });
    }
}
