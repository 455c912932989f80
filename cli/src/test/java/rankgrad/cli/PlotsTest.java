package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {
    @TempDir
    Path dir;

    @Test
    void twoWritersOfTheSameImageNeverShareATemporaryFile() throws Exception {
        Path png = dir.resolve("curves.png");
        byte[] first = {1, 2, 3};
        byte[] second = {4, 5};
        CountDownLatch firstIsWriting = new CountDownLatch(1);
        CountDownLatch secondIsDone = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // The first writer stops in the middle of its image until the second has written and renamed its own.
            Future<?> slow = pool.submit(() -> {
                Plots.write(png, out -> {
                    out.write(first, 0, 1);
                    firstIsWriting.countDown();
                    try {
                        secondIsDone.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    out.write(first, 1, 2);
                });
                return null;
            });
            firstIsWriting.await();
            Plots.write(png, out -> out.write(second));
            assertArrayEquals(second, Files.readAllBytes(png));
            secondIsDone.countDown();
            slow.get();
        } finally {
            pool.shutdownNow();
        }
        assertArrayEquals(first, Files.readAllBytes(png), "the last rename wins, with its whole image");
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file is left");
        }
    }
}
