package rankgrad.ltr.eval;

import java.util.Locale;

/**
 * How a run covers the judgments it is evaluated against: nothing is dropped silently, each
 * mismatch is counted here and stated in the report.
 *
 * @param judged judged documents the run scores
 * @param extra documents the run scores that are not judged: evaluated as grade 0 (as trec_eval)
 * @param missing judged documents the run does not score: ranked below every scored document of
 *        their query, the less relevant first (the worst placement they could get)
 * @param missingRelevant how many of the missing have a grade above 0
 * @param queriesNotJudged queries of the run without judgments: skipped
 * @param queriesNotInRun judged queries the run lacks: evaluated with all their documents missing
 */
public record Coverage(long judged, long extra, long missing, long missingRelevant, int queriesNotJudged,
        int queriesNotInRun) {

    /** Whether run and judgments hold exactly the same documents. */
    public boolean complete() {
        return extra == 0 && missing == 0 && queriesNotJudged == 0 && queriesNotInRun == 0;
    }

    /** One line for a report. */
    public String describe() {
        if (complete()) {
            return String.format(Locale.ROOT, "all %d judged documents scored, none extra", judged);
        }
        return String.format(Locale.ROOT, "%d judged documents scored; %d scored but not judged (graded 0); %d judged but"
                + " not scored (%d of them relevant; ranked last, less relevant first); %d queries of the run without"
                + " judgments (skipped); %d judged queries not in the run (all their documents ranked last)", judged, extra,
                missing, missingRelevant, queriesNotJudged, queriesNotInRun);
    }
}
