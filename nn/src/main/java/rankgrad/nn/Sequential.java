package rankgrad.nn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * Modules applied one after the other: forward(x) = m_k(... m_1(m_0(x))). Child i is named
 * {@code "i"}, so its parameters and buffers are {@code "i.<name>"} (PyTorch's
 * {@code nn.Sequential} numbering).
 *
 * <pre>{@code
 * Sequential net = Sequential.of(Linear.create(4, 8, Init.KAIMING_UNIFORM, rng, DType.F32),
 *         Activation.relu(), Linear.create(8, 1, Init.XAVIER_UNIFORM, rng, DType.F32));
 * net.namedParameters().keySet();   // [0.weight, 0.bias, 2.weight, 2.bias]
 * }</pre>
 */
public final class Sequential implements Layer {
    private final List<Layer> modules;
    private final Map<String, Var> parameters;
    private final Map<String, Tensor> buffers;

    private Sequential(List<Layer> modules) {
        this.modules = List.copyOf(modules);
        Map<String, Var> p = new LinkedHashMap<>();
        Map<String, Tensor> b = new LinkedHashMap<>();
        for (int i = 0; i < this.modules.size(); i++) {
            String prefix = i + ".";
            Layer m = this.modules.get(i);
            m.namedParameters().forEach((name, v) -> p.put(prefix + name, v));
            m.namedBuffers().forEach((name, t) -> b.put(prefix + name, t));
        }
        this.parameters = Collections.unmodifiableMap(p);
        this.buffers = Collections.unmodifiableMap(b);
    }

    /** The modules in order (at least one). */
    public static Sequential of(Layer... modules) {
        return of(List.of(modules));
    }

    /** The modules in order (at least one). */
    public static Sequential of(List<? extends Layer> modules) {
        if (modules.isEmpty()) {
            throw new IllegalArgumentException("a sequential container needs at least one module");
        }
        return new Sequential(new ArrayList<>(modules));
    }

    /** The children in order. */
    public List<Layer> modules() {
        return modules;
    }

    @Override
    public Var forward(Var x) {
        Var h = x;
        for (Layer m : modules) {
            h = m.forward(h);
        }
        return h;
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
        for (Layer m : modules) {
            m.setTraining(training);
        }
    }

    @Override
    public String toString() {
        return "Sequential" + modules;
    }
}
