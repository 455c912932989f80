package rankgrad.nn.optim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** The named trainable leaves an optimizer updates, with the checks and state copying they share. */
final class ParameterSet {
    final String[] names;
    final Var[] vars;

    private ParameterSet(String[] names, Var[] vars) {
        this.names = names;
        this.vars = vars;
    }

    static ParameterSet of(Map<String, Var> parameters) {
        if (parameters.isEmpty()) {
            throw new IllegalArgumentException("an optimizer needs at least one parameter");
        }
        String[] names = parameters.keySet().toArray(new String[0]);
        Var[] vars = parameters.values().toArray(new Var[0]);
        for (int i = 0; i < vars.length; i++) {
            if (!vars[i].isLeaf() || !vars[i].requiresGrad()) {
                throw new IllegalArgumentException("'" + names[i] + "' is not a trainable leaf; pass Var.param "
                        + "leaves (Layer.namedParameters())");
            }
        }
        return new ParameterSet(names, vars);
    }

    /** Names "0", "1", ... in list order. */
    static Map<String, Var> numbered(List<Var> parameters) {
        Map<String, Var> m = new LinkedHashMap<>();
        for (int i = 0; i < parameters.size(); i++) {
            m.put(Integer.toString(i), parameters.get(i));
        }
        return m;
    }

    int size() {
        return vars.length;
    }

    void zeroGrad() {
        for (Var v : vars) {
            v.zeroGrad();
        }
    }

    /** Copies {@code source}'s entries into {@code own}'s tensors after checking all names and shapes. */
    static void load(Map<String, Tensor> own, Map<String, Tensor> source, String owner) {
        for (Map.Entry<String, Tensor> e : own.entrySet()) {
            Tensor v = source.get(e.getKey());
            if (v == null || !v.sameShape(e.getValue())) {
                throw new IllegalArgumentException(owner + " state entry '" + e.getKey() + "' is "
                        + (v == null ? "missing" : "shaped " + Arrays.toString(v.shape())) + ", expected shape "
                        + Arrays.toString(e.getValue().shape()));
            }
        }
        for (String name : source.keySet()) {
            if (!own.containsKey(name)) {
                throw new IllegalArgumentException(owner + " state has an unexpected entry '" + name + "'");
            }
        }
        own.forEach((name, target) -> {
            Tensor v = source.get(name);
            for (int i = 0; i < target.size(); i++) {
                target.set(i, v.get(i));
            }
        });
    }
}
