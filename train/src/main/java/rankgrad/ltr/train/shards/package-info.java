/**
 * Virtual shards: a training step's batch split into S fixed shards
 * ({@link rankgrad.ltr.train.shards.VirtualShards}), each shard's gradient computed in this JVM
 * ({@link rankgrad.ltr.train.shards.LocalShards}) or on a cluster, and added in shard order
 * ({@link rankgrad.ltr.train.shards.ShardSum}), so that a sharded run's model depends on S only.
 * The single-machine trainer does not pass through here.
 */
package rankgrad.ltr.train.shards;
