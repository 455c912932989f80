package rankgrad.cli;

import java.util.Iterator;
import rankgrad.ltr.loss.LossFamily;
import rankgrad.ltr.loss.Losses;

/**
 * The loss names of the registry ({@link Losses#families()}) for picocli's {@code
 * completionCandidates}, so that {@code --loss} help lists every registered family.
 */
final class LossNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Losses.families().stream().map(LossFamily::syntax).iterator();
    }
}
