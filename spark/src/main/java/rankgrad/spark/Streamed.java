package rankgrad.spark;

import java.util.Iterator;
import java.util.function.Function;

/**
 * A partition's rows mapped one at a time, as they are asked for: what a {@code mapPartitions}
 * function returns when it must not hold its partition (the input rows are already held by the
 * task's reader or cache; a list of outputs would hold them a second time).
 */
final class Streamed {
    private Streamed() {
    }

    /** {@code f} of each element of {@code in}, applied when the element is taken. */
    static <A, B> Iterator<B> map(Iterator<A> in, Function<? super A, ? extends B> f) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return in.hasNext();
            }

            @Override
            public B next() {
                return f.apply(in.next());
            }
        };
    }
}
