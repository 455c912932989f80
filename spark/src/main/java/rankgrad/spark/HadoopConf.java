package rankgrad.spark;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The driver's Hadoop configuration as plain strings, so that tasks open {@code hdfs://},
 * {@code s3a://} or local paths with the same settings ({@code Configuration} itself is not
 * {@link Serializable}).
 */
record HadoopConf(Map<String, String> entries) implements Serializable {

    static HadoopConf of(Configuration conf) {
        Map<String, String> m = new HashMap<>();
        conf.forEach(e -> m.put(e.getKey(), e.getValue()));
        return new HadoopConf(m);
    }

    Configuration toConfiguration() {
        Configuration c = new Configuration(false);
        entries.forEach(c::set);
        return c;
    }
}
