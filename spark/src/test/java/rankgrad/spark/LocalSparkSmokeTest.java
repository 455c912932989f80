package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The build's Spark starts in local[2] on the toolchain JDK and runs a two-partition job. */
class LocalSparkSmokeTest {
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(LocalSparkSmokeTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void sumsOverTwoPartitions() {
        long sum = spark.createDataset(List.of(1L, 2L, 3L, 4L), Encoders.LONG()).repartition(2)
                .reduce((org.apache.spark.api.java.function.ReduceFunction<Long>) Long::sum);
        assertEquals(10L, sum);
        assertEquals(2, spark.sparkContext().defaultParallelism());
    }
}
