package rankgrad.ltr.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One system's scores: per query (in the order first seen) each document id and its score (in the
 * order first seen), as read from a TREC run, a TSV, or a file of one score per data line.
 *
 * <p>Formats, chosen by the first data line and then required of every line (fields separated by
 * white space):
 * <ul>
 *   <li>TREC run, 6 fields: {@code qid Q0 docid rank score tag} (the rank is not used: the scores
 *       decide the order, as in trec_eval);
 *   <li>TSV, 3 or 4 fields: {@code qid docid score} or {@code qid docid rank score}, optionally after
 *       a header line starting with {@code qid} ({@code predict} writes {@code qid docid rank score}).
 * </ul>
 * A score that is not a finite number, a document named twice in one query, a query whose lines
 * are not contiguous, or a line with another field count is an {@link EvalInputException} naming
 * file and line.
 *
 * @param name the file it came from
 * @param queries qid to (docid to score); unmodifiable, in file order
 */
public record Run(String name, Map<String, Map<String, Double>> queries) {
    /** A decimal number as C's strtod reads it, without hex, NaN or infinities (trec_eval's scores). */
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    public Run {
        queries = Collections.unmodifiableMap(queries);
    }

    /** Reads a TREC run or a TSV. */
    public static Run read(Path file) throws IOException {
        String name = file.toString();
        Map<String, Map<String, Double>> queries = new LinkedHashMap<>();
        int fields = -1;
        long lineNumber = 0;
        String current = null;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                String t = line.strip();
                if (t.isEmpty()) {
                    continue;
                }
                String[] f = t.split("\\s+");
                if (fields < 0) {
                    if (f.length != 3 && f.length != 4 && f.length != 6) {
                        throw new EvalInputException(name, lineNumber, "expected a TREC run line 'qid Q0 docid rank score tag'"
                                + " or a TSV line 'qid docid score' / 'qid docid rank score', found " + f.length + " fields");
                    }
                    fields = f.length;
                    if (f.length != 6 && f[0].equalsIgnoreCase("qid")) {
                        continue;
                    }
                }
                if (f.length != fields) {
                    throw new EvalInputException(name, lineNumber, f.length + " fields where the file's first line has "
                            + fields);
                }
                String qid = f[0];
                String docid = fields == 6 ? f[2] : f[1];
                String scoreText = f[fields == 6 ? 4 : fields - 1];
                double score = parseScore(name, lineNumber, scoreText);
                if (!qid.equals(current)) {
                    if (queries.containsKey(qid)) {
                        throw new EvalInputException(name, lineNumber, "query " + qid + " appears again after other"
                                + " queries; a query's lines must be contiguous");
                    }
                    queries.put(qid, new LinkedHashMap<>());
                    current = qid;
                }
                if (queries.get(qid).put(docid, score) != null) {
                    throw new EvalInputException(name, lineNumber, "document " + docid + " appears twice in query " + qid);
                }
            }
        }
        if (queries.isEmpty()) {
            throw new EvalInputException(name, 0, "the run has no data lines");
        }
        return new Run(name, queries);
    }

    /**
     * The run of a file holding one score per line in the data's document order (LightGBM's and
     * XGBoost's prediction files), named by {@code judgments} read from that data.
     */
    public static Run ofScoreLines(Path file, Judgments judgments) throws IOException {
        String name = file.toString();
        Map<String, Map<String, Double>> queries = new LinkedHashMap<>();
        long lineNumber = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, Map<String, Float>> q : judgments.queries().entrySet()) {
                Map<String, Double> docs = new LinkedHashMap<>();
                for (String docid : q.getValue().keySet()) {
                    String line = in.readLine();
                    lineNumber++;
                    if (line == null) {
                        throw new EvalInputException(name, 0, "has " + (lineNumber - 1) + " scores, but " + judgments.source()
                                + " has " + judgments.documents() + " documents");
                    }
                    docs.put(docid, parseScore(name, lineNumber, line.strip()));
                }
                queries.put(q.getKey(), docs);
            }
            long extra = 0;
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.isBlank()) {
                    extra++;
                }
            }
            if (extra > 0) {
                throw new EvalInputException(name, 0, "has " + (lineNumber + extra) + " scores, but " + judgments.source()
                        + " has " + judgments.documents() + " documents");
            }
        }
        return new Run(name, queries);
    }

    /** Number of documents over all queries. */
    public long documents() {
        return queries.values().stream().mapToLong(Map::size).sum();
    }

    private static double parseScore(String name, long line, String text) throws EvalInputException {
        if (!DECIMAL.matcher(text).matches()) {
            throw new EvalInputException(name, line, "score '" + text + "' is not a decimal number");
        }
        double v = Double.parseDouble(text);
        if (!Double.isFinite(v)) {
            throw new EvalInputException(name, line, "score '" + text + "' is beyond the range of a double");
        }
        return v;
    }
}
