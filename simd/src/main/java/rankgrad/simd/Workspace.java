package rankgrad.simd;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.WeakHashMap;

/**
 * Reusable float32 arrays for the tensors that live only inside one network's graph (a hidden
 * layer's pre-activation, its output, the gradients that flow between its layers), so that a
 * training step does not allocate, and the JVM does not zero, tens of megabytes per step.
 *
 * <p>Ownership rule (the caller's half of the contract): an array is {@linkplain #take taken} by
 * the op that fills it and {@linkplain #give given back} only by the op that reads it last, at the
 * end of that op's backward pass. Only arrays that never escape to the user are taken from here:
 * never a graph's output, a parameter, a parameter's gradient, or the gradient of a leaf. An array
 * whose graph is dropped without a backward pass is never given back; it is then ordinary garbage
 * (the pool holds only weak references to arrays it lent).
 *
 * <p>The pool's half: {@link #give} accepts only an array this pool lent and that is still out; any
 * other array (a foreign tensor, an array given back twice) is ignored, so an op may offer every
 * gradient it received. Arrays are matched by exact length (a tensor's array has exactly its size),
 * so reuse needs batches with the same number of rows; at most {@link #MAX_FREE} arrays wait.
 *
 * <p>Thread-safety: synchronized; a network's graph is built and differentiated on one thread.
 */
public final class Workspace {
    /** Free arrays kept at most: a 4-hidden-layer step has about 12 alive at its peak. */
    static final int MAX_FREE = 24;

    /** Every array lent and not collected: TRUE while it is out, FALSE while it waits in {@code free}. */
    private final WeakHashMap<float[], Boolean> known = new WeakHashMap<>();
    private final ArrayDeque<float[]> free = new ArrayDeque<>();

    /**
     * An array of exactly {@code n} floats with unspecified contents (a recycled array keeps its
     * old values): the caller overwrites every element.
     */
    public synchronized float[] take(int n) {
        for (Iterator<float[]> it = free.iterator(); it.hasNext();) {
            float[] a = it.next();
            if (a.length == n) {
                it.remove();
                known.put(a, Boolean.TRUE);
                return a;
            }
        }
        float[] a = new float[n];
        known.put(a, Boolean.TRUE);
        return a;
    }

    /** Returns {@code a} for reuse when this pool lent it and it is out; otherwise does nothing. */
    public synchronized void give(float[] a) {
        if (known.get(a) != Boolean.TRUE) {
            return;
        }
        known.put(a, Boolean.FALSE);
        // Most recently given first: the next take of that size gets the array warmest in cache.
        free.addFirst(a);
        if (free.size() > MAX_FREE) {
            known.remove(free.removeLast());
        }
    }

    /** The number of arrays waiting for reuse (for tests). */
    public synchronized int freeCount() {
        return free.size();
    }
}
