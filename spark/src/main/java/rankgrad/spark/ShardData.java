package rankgrad.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Query;

/**
 * The queries of one shard of one training step, in batch order.
 *
 * @param firstQuery the batch position of the first one
 * @param queries the queries
 */
record ShardData(int firstQuery, TrainQuery[] queries) implements Serializable {

    Dataset dataset() {
        List<Query> qs = new ArrayList<>(queries.length);
        for (TrainQuery q : queries) {
            qs.add(q.query());
        }
        return new Dataset("shard", queries[0].width(), qs);
    }
}
