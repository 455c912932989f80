package rankgrad.ltr.loss;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.ApproxNdcgLoss;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.TwinSigmoidLoss;

/**
 * Ranking losses by the names the papers use (and the command line takes):
 * <ul>
 *   <li>{@code ndcg-type1..3}, {@code ap-type1..3}, {@code precision@k-type1..3},
 *       {@code nerr@k-type1..3}: twin-sigmoid direct metric optimization (Yu et al.);
 *   <li>{@code approx-ndcg} (alpha 10; {@code approx-ndcg:ALPHA} for another), Qin; Bruch et al.;
 *   <li>{@code sdcg@k}, {@code shf-sdcg@k}, {@code reg-shf-sdcg@k} (Wu et al.);
 *   <li>{@code lambdarank} ({@code lambdarank@k} truncated), {@code ranknet} (Burges);
 *   <li>{@code listnet}, {@code listmle}.
 * </ul>
 */
public final class Losses {
    private static final Pattern TWIN = Pattern.compile("(ndcg|ap|precision@(\\d+)|pre@(\\d+)|nerr@(\\d+))-type([123])");
    private static final Pattern AT_K = Pattern.compile("(sdcg|shf-sdcg|reg-shf-sdcg|lambdarank)@(\\d+)");

    private Losses() {
    }

    /** Example names, one per family, for help texts. */
    public static List<String> examples() {
        return List.of("ndcg-type3", "ap-type3", "precision@10-type3", "nerr@10-type3", "approx-ndcg", "sdcg@10",
                "shf-sdcg@10", "reg-shf-sdcg@10", "lambdarank", "ranknet", "listnet", "listmle");
    }

    /**
     * The loss called {@code name}; {@code seed} seeds its tie-breaks and {@code totalSteps} is the
     * schedule length T of REG-SHF-SDCG (ignored by the others).
     */
    public static RankingLoss parse(String name, long seed, int totalSteps) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        Matcher twin = TWIN.matcher(n);
        if (twin.matches()) {
            BackwardType type = BackwardType.values()[Integer.parseInt(twin.group(5)) - 1];
            return TwinSigmoidLoss.of(metric(twin), type, seed);
        }
        Matcher atK = AT_K.matcher(n);
        if (atK.matches()) {
            int k = Integer.parseInt(atK.group(2));
            return switch (atK.group(1)) {
                case "sdcg" -> SmoothedDcgLoss.sdcg(k);
                case "shf-sdcg" -> SmoothedDcgLoss.shfSdcg(k);
                case "reg-shf-sdcg" -> RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(k), Math.max(3, totalSteps));
                default -> LambdaRankLoss.create(seed).withTruncation(k);
            };
        }
        if (n.startsWith("approx-ndcg")) {
            if (n.equals("approx-ndcg")) {
                return ApproxNdcgLoss.of(ApproxNdcgLoss.DEFAULT_ALPHA);
            }
            if (n.startsWith("approx-ndcg:")) {
                try {
                    return ApproxNdcgLoss.of(Double.parseDouble(n.substring("approx-ndcg:".length())));
                } catch (NumberFormatException e) {
                    throw unknown(name);
                }
            }
        }
        return switch (n) {
            case "lambdarank" -> LambdaRankLoss.create(seed);
            case "ranknet" -> RankNetLoss.create();
            case "listnet" -> ListNetLoss.create();
            case "listmle" -> ListMleLoss.create(seed);
            default -> throw unknown(name);
        };
    }

    private static RankMetric metric(Matcher m) {
        if (m.group(2) != null || m.group(3) != null) {
            return RankMetric.precision(Integer.parseInt(m.group(2) != null ? m.group(2) : m.group(3)));
        }
        if (m.group(4) != null) {
            return RankMetric.nerr(Integer.parseInt(m.group(4)));
        }
        return m.group(1).equals("ndcg") ? RankMetric.ndcg() : RankMetric.averagePrecision();
    }

    private static IllegalArgumentException unknown(String name) {
        return new IllegalArgumentException("unknown loss '" + name + "'; e.g. " + String.join(", ", examples())
                + " (spsa:F and fdsa are trainers, see train --help)");
    }
}
