package rankgrad.spark;

import java.io.Serializable;
import rankgrad.ltr.train.ShardGradient;

/** A {@link ShardGradient} computed on an executor, on its way to the driver, with its shard number. */
record ShardResult(int shard, int firstQuery, int queries, long documents, double loss, NamedTensors gradients,
        NamedTensors buffers, String nonFinite) implements Serializable {

    static ShardResult of(int shard, ShardGradient g) {
        return new ShardResult(shard, g.firstQuery(), g.queries(), g.documents(), g.loss(),
                NamedTensors.of(g.gradients()), NamedTensors.of(g.buffers()), g.nonFinite());
    }

    ShardGradient gradient() {
        return new ShardGradient(firstQuery, queries, documents, loss, gradients.toMap(), buffers.toMap(), nonFinite);
    }
}
