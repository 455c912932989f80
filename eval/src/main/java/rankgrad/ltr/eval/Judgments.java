package rankgrad.ltr.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;

/**
 * The relevance grades runs are evaluated against: per query (in file order) each judged document
 * id and its grade (in file order), from TREC qrels or from a LETOR file.
 *
 * @param source what they were read from, for reports (the file, and for LETOR data how its
 *        documents are named)
 * @param queries qid to (docid to grade); unmodifiable
 */
public record Judgments(String source, Map<String, Map<String, Float>> queries) {

    public Judgments {
        queries = Collections.unmodifiableMap(queries);
    }

    /**
     * Reads TREC qrels, {@code qid iteration docid grade} per line (the iteration is not used); a
     * grade is a whole number &gt;= 0 (trec_eval's negative "in pool, unjudged" is refused rather
     * than guessed at). A fractional grade such as {@code 2.5} is refused: trec_eval reads a grade
     * with C's {@code atol} ({@code text_qrels_ptr->rel = atol(lines[i].rel);} in
     * {@code te_get_qrels}, get_qrels.c), which silently drops the fraction, so the same file would
     * mean grade 2 there and 2.5 here. A document judged twice in one query is an error.
     */
    public static Judgments readQrels(Path file) throws IOException {
        return readQrels(file, Double.POSITIVE_INFINITY);
    }

    /**
     * {@link #readQrels(Path)}, refusing grades above {@code ymax} (ERR's grade scale maximum)
     * with file and line.
     */
    public static Judgments readQrels(Path file, double ymax) throws IOException {
        String name = file.toString();
        Map<String, Map<String, Float>> queries = new LinkedHashMap<>();
        long lineNumber = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                lineNumber++;
                String t = line.strip();
                if (t.isEmpty()) {
                    continue;
                }
                String[] f = t.split("\\s+");
                if (f.length != 4) {
                    throw new EvalInputException(name, lineNumber, "expected a qrels line 'qid iteration docid grade', found "
                            + f.length + " fields");
                }
                float grade;
                try {
                    grade = Float.parseFloat(f[3]);
                } catch (NumberFormatException e) {
                    throw new EvalInputException(name, lineNumber, "grade '" + f[3] + "' is not a number");
                }
                if (!(grade >= 0) || grade > LetorReader.MAX_GRADE || f[3].chars().anyMatch(Character::isLetter)) {
                    throw new EvalInputException(name, lineNumber, "grade '" + f[3] + "' must be a number from 0 to "
                            + (int) LetorReader.MAX_GRADE);
                }
                if (grade != Math.rint(grade)) {
                    throw new EvalInputException(name, lineNumber, "grade " + f[3] + " is not a whole number; grades are"
                            + " integers (trec_eval reads " + f[3] + " as " + (int) grade + ", dropping the fraction)");
                }
                if (grade > ymax) {
                    throw new EvalInputException(name, lineNumber, "grade " + f[3] + " exceeds the grade scale maximum ymax = "
                            + ymax + " that ERR needs; set --ymax to the largest grade");
                }
                if (queries.computeIfAbsent(f[0], q -> new LinkedHashMap<>()).put(f[2], grade) != null) {
                    throw new EvalInputException(name, lineNumber, "document " + f[2] + " is judged twice in query " + f[0]);
                }
            }
        }
        if (queries.isEmpty()) {
            throw new EvalInputException(name, 0, "the qrels have no data lines");
        }
        return new Judgments(name + " (qrels)", queries);
    }

    /**
     * The grades of a LETOR file read as {@code options} say, each document named by
     * {@code ids}: its {@code docid = ...} comment, or its position in the query (0-based) when
     * the file has none.
     */
    public static Judgments readLetor(Path file, LetorOptions options, DocIds ids) throws IOException {
        Map<String, Map<String, Float>> queries = new LinkedHashMap<>();
        LetorReader.streamLabels(file, options, (qid, labels, comments) -> {
            String[] names = ids.names(file, qid, comments);
            Map<String, Float> docs = new LinkedHashMap<>();
            for (int i = 0; i < names.length; i++) {
                if (docs.put(names[i], labels[i]) != null) {
                    throw new IllegalArgumentException(file + ": document " + names[i] + " appears twice in query " + qid);
                }
            }
            queries.put(qid, docs);
        });
        return new Judgments(file + " (" + ids.describe() + ")", queries);
    }

    /** Number of judged documents over all queries. */
    public long documents() {
        return queries.values().stream().mapToLong(Map::size).sum();
    }
}
