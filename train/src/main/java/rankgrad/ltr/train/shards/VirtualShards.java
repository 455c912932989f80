package rankgrad.ltr.train.shards;

/**
 * How a training step's batch is split into a fixed number of virtual shards: shard k of a batch of
 * n queries holds the queries at batch positions {@code start(n, k) .. start(n, k + 1) - 1}, with
 * <pre>  start(n, k) = floor(k n / S)</pre>
 * contiguous ranges whose sizes differ by at most one (a shard is empty when S &gt; n). The split
 * depends only on the batch and S, never on where the queries are stored: that is what makes a
 * sharded run's model a function of S alone, not of the number of executors, partitions or
 * threads ({@link ShardSum} adds the shards' gradients in shard order).
 *
 * @param count S, the number of shards (&gt;= 1)
 */
public record VirtualShards(int count) {

    public VirtualShards {
        if (count < 1) {
            throw new IllegalArgumentException("the number of shards must be >= 1, got " + count);
        }
    }

    /** One shard: the whole batch, which is what {@link rankgrad.ltr.train.Trainer} computes. */
    public static VirtualShards one() {
        return new VirtualShards(1);
    }

    /** The batch position of shard {@code shard}'s first query, for a batch of {@code batchQueries} queries. */
    public int start(int batchQueries, int shard) {
        if (shard < 0 || shard > count) {
            throw new IllegalArgumentException("shard " + shard + " is not in 0.." + count);
        }
        return (int) ((long) shard * batchQueries / count);
    }

    /** The shard that holds batch position {@code position} of a batch of {@code batchQueries} queries. */
    public int shardOf(int batchQueries, int position) {
        if (position < 0 || position >= batchQueries) {
            throw new IllegalArgumentException("position " + position + " is not in a batch of " + batchQueries);
        }
        // The largest k with start(n, k) <= position: k n / S < position + 1.
        return (int) (((long) (position + 1) * count - 1) / batchQueries);
    }
}
