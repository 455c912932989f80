package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QuerySplitTest {
    private static final Dataset DATA = CubicData.create(3, 1).sample("d", 23, 4, 2);

    private static List<String> qids(Dataset d) {
        return d.queries().stream().map(Query::qid).toList();
    }

    @Test
    void aHoldOutSplitsByQueryDeterministicallyPerSeed() {
        QuerySplit.HoldOut a = QuerySplit.holdOut(DATA, 0.2, 7);
        assertEquals(5, a.valid().size(), "round(0.2 * 23)");
        assertEquals(18, a.train().size());
        Set<String> all = new HashSet<>(qids(a.train()));
        all.addAll(qids(a.valid()));
        assertEquals(new HashSet<>(qids(DATA)), all, "every query lands in one part");
        assertEquals(qids(a.valid()), qids(QuerySplit.holdOut(DATA, 0.2, 7).valid()), "same seed, same split");
        assertNotEquals(qids(a.valid()), qids(QuerySplit.holdOut(DATA, 0.2, 8).valid()), "another seed, another split");
        List<String> inFileOrder = new ArrayList<>(qids(DATA));
        inFileOrder.retainAll(qids(a.valid()));
        assertEquals(inFileOrder, qids(a.valid()), "a part keeps file order");
        assertEquals(1, QuerySplit.holdOut(DATA, 0.001, 1).valid().size(), "at least one query is held out");
        assertThrows(IllegalArgumentException.class, () -> QuerySplit.holdOut(DATA, 1.0, 1));
    }

    @Test
    void foldsPartitionTheQueriesAndRotateTestAndValidation() {
        List<Dataset> parts = QuerySplit.parts(DATA, 5, 3);
        Set<String> seen = new HashSet<>();
        for (Dataset p : parts) {
            assertTrue(p.size() == 4 || p.size() == 5, "sizes differ by at most one: " + p.size());
            for (String q : qids(p)) {
                assertTrue(seen.add(q), "query " + q + " in two parts");
            }
        }
        assertEquals(23, seen.size());
        for (int i = 0; i < 5; i++) {
            QuerySplit.Fold f = QuerySplit.fold(parts, i);
            assertEquals(qids(parts.get(i)), qids(f.test()));
            assertEquals(qids(parts.get((i + 1) % 5)), qids(f.valid()));
            assertEquals(23, f.train().size() + f.valid().size() + f.test().size());
            Set<String> train = new HashSet<>(qids(f.train()));
            assertTrue(qids(f.test()).stream().noneMatch(train::contains), "no test query is trained on");
        }
        assertThrows(IllegalArgumentException.class, () -> QuerySplit.parts(DATA, 24, 1));
        assertThrows(IllegalArgumentException.class, () -> QuerySplit.fold(QuerySplit.parts(DATA, 2, 1), 0));
    }
}
