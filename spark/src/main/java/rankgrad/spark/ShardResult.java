package rankgrad.spark;

import java.io.Serializable;
import rankgrad.ltr.train.BatchGradient;

/** A {@link BatchGradient} computed on an executor, on its way to the driver, with its shard number. */
record ShardResult(int shard, int firstQuery, int queries, long documents, double loss, NamedTensors gradients,
        NamedTensors buffers, String nonFinite) implements Serializable {

    static ShardResult of(int shard, BatchGradient g) {
        return new ShardResult(shard, g.firstQuery(), g.queries(), g.documents(), g.loss(),
                NamedTensors.of(g.gradients()), NamedTensors.of(g.buffers()), g.nonFinite());
    }

    BatchGradient gradient() {
        return new BatchGradient(firstQuery, queries, documents, loss, gradients.toMap(), buffers.toMap(), nonFinite);
    }
}
