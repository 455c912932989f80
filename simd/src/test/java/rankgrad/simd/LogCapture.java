package rankgrad.simd;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the messages of logger {@code rankgrad.autodiff} (System.Logger goes to java.util.logging). */
final class LogCapture extends Handler implements AutoCloseable {
    private final Logger logger = Logger.getLogger("rankgrad.autodiff");
    private final List<String> messages = new CopyOnWriteArrayList<>();

    LogCapture() {
        logger.addHandler(this);
    }

    List<String> messages() {
        return List.copyOf(messages);
    }

    @Override
    public void publish(LogRecord rec) {
        messages.add(rec.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
