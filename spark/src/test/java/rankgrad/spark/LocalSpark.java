package rankgrad.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The test session: {@code local[2]} (two task slots, so that every test runs real partitions in
 * parallel), no UI, few shuffle partitions (the default 200 would make every small shuffle slow).
 * Each test class opens one in {@code @BeforeAll} and stops it in {@code @AfterAll}.
 */
public final class LocalSpark {
    private LocalSpark() {
    }

    public static SparkSession start(Class<?> testClass) {
        return builder(testClass).getOrCreate();
    }

    /** The test session's settings, for a test that adds its own. */
    public static SparkSession.Builder builder(Class<?> testClass) {
        return SparkSession.builder()
                .master("local[2]")
                .appName(testClass.getSimpleName())
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "4")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1");
    }
}
