package rankgrad.spark;

import org.apache.spark.Partitioner;

/**
 * Places the queries of (step b, shard k), keyed {@code b S + k}, in partition {@code k mod P}: a
 * shard is never split, and each step's S shards spread over min(S, P) partitions. Where a shard
 * lands changes only which executor computes it, never the result.
 */
final class ShardPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;
    private final int partitions;
    private final int shards;

    ShardPartitioner(int partitions, int shards) {
        this.partitions = partitions;
        this.shards = shards;
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    @Override
    public int getPartition(Object key) {
        return (int) (((Long) key % shards) % partitions);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardPartitioner p && p.partitions == partitions && p.shards == shards;
    }

    @Override
    public int hashCode() {
        return 31 * partitions + shards;
    }
}
