package rankgrad.ltr.io;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The writer {@link AtomicWriteTest} kills with SIGKILL: it starts an atomic write of {@code args[0]},
 * creates {@code args[1]} from inside the write (its temporary exists and is locked) and waits there.
 */
public final class SlowWriterChild {
    private SlowWriterChild() {
    }

    public static void main(String[] args) throws Exception {
        AtomicWrite.writeString(Path.of(args[0]), "old");
        AtomicWrite.write(Path.of(args[0]), out -> {
            out.write("half of the new content".getBytes());
            out.flush();
            Files.createFile(Path.of(args[1]));
            try {
                Thread.sleep(600_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
