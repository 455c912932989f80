package rankgrad.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;

/**
 * Reading a LETOR text file into a {@link Dataset} on one thread ({@code LetorReader} is
 * sequential), on files the way they come: {@code cubic} is the demo's training file (50 features,
 * 50 documents per query, features written with 8-9 significant digits, 141 MB for 4,000 queries;
 * 1,000 here, 35 MB), {@code mslr} has MSLR-WEB10K's shape (136 features, 120 documents per query;
 * 400 queries, about 110 MB). The file is in the page cache after the first read, so this measures
 * parsing, not the disk. MB/s = the file's size (printed at setup) over the time per operation.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC", "-Xmx3g"})
@State(Scope.Benchmark)
public class LetorParseBenchmark {
    /** Which file. */
    @Param({"cubic", "mslr"})
    public String file;

    private Path path;

    /** Writes the file once per trial. */
    @Setup(Level.Trial)
    public void write(BenchmarkParams params) throws IOException {
        Dataset data = switch (file) {
            case "cubic" -> CubicData.create(50, 1).sample("train", 1000, 50, 2);
            case "mslr" -> CubicData.create(136, 1).sample("train", 400, 120, 2);
            default -> throw new IllegalArgumentException("file=" + file + ": use cubic or mslr");
        };
        path = Files.createTempFile("letor-parse", ".txt");
        LetorWriter.write(data, path);
        System.out.printf("%n%s: %.1f MB%n", file, Files.size(path) / 1e6);
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        Files.deleteIfExists(path);
    }

    @Benchmark
    public Dataset read() throws IOException {
        return LetorReader.read(path);
    }
}
