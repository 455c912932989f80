package rankgrad.autodiff;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;
import rankgrad.simd.RowChunks;

/**
 * A node of the define-by-run graph: a value, the op and parents that made it, and after
 * {@link #backward()} the gradient of the root with respect to it.
 *
 * <p>Leaves are made with {@link #param} (trainable, gradient kept) or {@link #constant}
 * (no gradient). {@link #apply} runs an {@link Op} on nodes and records it when some input needs a
 * gradient and no {@link NoGrad} scope is active.
 *
 * <p>{@link #backward()} visits the graph in reverse topological order with an explicit stack (no
 * recursion, so long chains cannot overflow the stack), seeds 1 for a scalar root and accumulates
 * gradients of nodes used more than once. Residuals of interior nodes are released as soon as
 * their backward has run, so a graph can be differentiated once.
 *
 * <p>Thread-safety: a graph belongs to one thread; parameters may be shared read-only.
 */
public final class Var {
    private static final Var[] NO_PARENTS = new Var[0];

    private final Tensor value;
    private final Var[] parents;
    private final Op<Object> op;
    private Object residuals;
    private final boolean requiresGrad;
    private Tensor grad;
    private String label;

    private Var(Tensor value, Var[] parents, Op<Object> op, Object residuals, boolean requiresGrad) {
        this.value = value;
        this.parents = parents;
        this.op = op;
        this.residuals = residuals;
        this.requiresGrad = requiresGrad;
    }

    /** A trainable leaf: its gradient is kept after {@link #backward()}. */
    public static Var param(Tensor value) {
        return new Var(value, NO_PARENTS, null, null, true);
    }

    /** A leaf that needs no gradient (data, labels, masks). */
    public static Var constant(Tensor value) {
        return new Var(value, NO_PARENTS, null, null, false);
    }

    /**
     * Runs {@code op} forward on the inputs' values and, unless no input needs a gradient or a
     * {@link NoGrad} scope is active, records it in the graph.
     */
    @SuppressWarnings("unchecked")
    public static <R> Var apply(Op<R> op, Var... inputs) {
        Tensor[] values = new Tensor[inputs.length];
        boolean track = false;
        for (int i = 0; i < inputs.length; i++) {
            values[i] = inputs[i].value;
            track |= inputs[i].requiresGrad;
        }
        track &= !NoGrad.active();
        Op.Result<R> result = op.forward(values);
        if (!track) {
            return new Var(result.output(), NO_PARENTS, null, null, false);
        }
        return new Var(result.output(), inputs.clone(), (Op<Object>) op, result.residuals(), true);
    }

    public Tensor value() {
        return value;
    }

    /** The gradient after {@link #backward()}, or null if none reached this node. */
    public Tensor grad() {
        return grad;
    }

    public boolean requiresGrad() {
        return requiresGrad;
    }

    /** Whether this node is a leaf (made by {@link #param} or {@link #constant}, or untracked). */
    public boolean isLeaf() {
        return parents.length == 0;
    }

    /** Clears the gradient (optimizers call this between steps). */
    public void zeroGrad() {
        grad = null;
    }

    /** The same value as a constant: gradients stop here. */
    public Var detach() {
        return constant(value);
    }

    /** Optional name shown in error messages. */
    public Var label(String name) {
        this.label = name;
        return this;
    }

    public DType dtype() {
        return value.dtype();
    }

    /** Back-propagates from this scalar node (seed dL/dL = 1). */
    public void backward() {
        if (value.size() != 1) {
            throw new IllegalStateException("backward() without a seed needs a scalar root, got shape "
                    + Arrays.toString(value.shape()) + "; call backward(seed)");
        }
        backward(Tensor.full(value.dtype(), 1.0, value.shape()));
    }

    /** Back-propagates {@code seed} = dL/d(this) through the graph. */
    public void backward(Tensor seed) {
        checkGradient(this, seed, "seed");
        if (!requiresGrad) {
            throw new IllegalStateException("backward() on a node that does not require a gradient: "
                    + "no parameter reaches it (or it was computed inside NoGrad)");
        }
        List<Var> order = topologicalOrder();
        Map<Var, Tensor> pending = new IdentityHashMap<>();
        // Sums this pass allocated that no op has seen yet: only the pending map holds them, so a
        // further gradient for the same node is added into them in place (the same additions in
        // the same order as a new sum, one n x w allocation fewer). Ops may pass one gradient
        // tensor to several inputs, so a tensor an op returned is never written into.
        Set<Tensor> ownSums = Collections.newSetFromMap(new IdentityHashMap<>());
        pending.put(this, seed);
        for (Var node : order) {
            Tensor g = pending.remove(node);
            if (g == null) {
                continue;
            }
            ownSums.remove(g);
            if (node.isLeaf()) {
                node.accumulate(g);
                continue;
            }
            boolean[] needs = new boolean[node.parents.length];
            for (int i = 0; i < needs.length; i++) {
                needs[i] = node.parents[i].requiresGrad;
            }
            Tensor[] parentGrads = node.op.backward(node.residuals, g, needs);
            node.residuals = null;
            if (parentGrads == null || parentGrads.length != node.parents.length) {
                throw new IllegalStateException(node.op.name() + ".backward returned "
                        + (parentGrads == null ? "null" : parentGrads.length + " gradients") + " for "
                        + node.parents.length + " inputs");
            }
            for (int i = 0; i < parentGrads.length; i++) {
                Var p = node.parents[i];
                if (!needs[i] || parentGrads[i] == null) {
                    continue;
                }
                checkGradient(p, parentGrads[i], node.op.name() + " input " + i);
                pending.merge(p, parentGrads[i], (held, more) -> {
                    if (ownSums.contains(held)) {
                        add(held, more, held);
                        return held;
                    }
                    Tensor total = sum(held, more);
                    ownSums.add(total);
                    return total;
                });
            }
        }
    }

    /** Interior nodes reachable from this one, root first, every node before its parents. */
    private List<Var> topologicalOrder() {
        // Iterative post-order DFS; a node is emitted after all of its parents, then reversed.
        List<Var> post = new ArrayList<>();
        Map<Var, Boolean> seen = new IdentityHashMap<>();
        ArrayDeque<Var> stack = new ArrayDeque<>();
        ArrayDeque<Integer> next = new ArrayDeque<>();
        stack.push(this);
        next.push(0);
        seen.put(this, Boolean.TRUE);
        while (!stack.isEmpty()) {
            Var node = stack.peek();
            int i = next.pop();
            if (i < node.parents.length) {
                next.push(i + 1);
                Var p = node.parents[i];
                if (p.requiresGrad && seen.putIfAbsent(p, Boolean.TRUE) == null) {
                    stack.push(p);
                    next.push(0);
                }
            } else {
                stack.pop();
                post.add(node);
            }
        }
        Collections.reverse(post);
        return post;
    }

    private void accumulate(Tensor g) {
        // Never write into a tensor we did not allocate: ops may pass one gradient to several inputs.
        grad = grad == null ? g : sum(grad, g);
    }

    private static Tensor sum(Tensor a, Tensor b) {
        Tensor out = Tensor.zerosLike(a);
        add(a, b, out);
        return out;
    }

    /**
     * out = a + b elementwise (out may be a); float32 in parallel over {@link RowChunks} of the
     * flat array, each element on its own, so the bits do not depend on the thread count.
     */
    private static void add(Tensor a, Tensor b, Tensor out) {
        if (a.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] x = a.f32();
            float[] y = b.f32();
            float[] o = out.f32();
            RowChunks.forEach(o.length, 1, (from, to) -> k.addF32(x, from, y, from, o, from, to - from));
        } else {
            double[] x = a.f64();
            double[] y = b.f64();
            double[] o = out.f64();
            for (int i = 0; i < o.length; i++) {
                o[i] = x[i] + y[i];
            }
        }
    }

    private static void checkGradient(Var node, Tensor g, String from) {
        if (!g.sameShape(node.value) || g.dtype() != node.value.dtype()) {
            throw new IllegalStateException("gradient from " + from + " has " + g.dtype() + Arrays.toString(g.shape())
                    + " but " + node.describe() + " is " + node.value.dtype() + Arrays.toString(node.value.shape()));
        }
    }

    private String describe() {
        if (label != null) {
            return "'" + label + "'";
        }
        return op == null ? "a leaf" : "the output of " + op.name();
    }

    @Override
    public String toString() {
        return "Var(" + (label != null ? label + ", " : "") + value + (grad != null ? ", grad=" + grad : "") + ")";
    }
}
