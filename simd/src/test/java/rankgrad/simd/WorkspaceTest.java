package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The pool's half of the ownership contract: it recycles only arrays it lent and that are out. */
class WorkspaceTest {

    @Test
    void anArrayGivenBackIsLentAgainForTheSameLength() {
        Workspace ws = new Workspace();
        float[] a = ws.take(10);
        ws.give(a);
        assertSame(a, ws.take(10));
        assertEquals(0, ws.freeCount());
    }

    @Test
    void aForeignArrayIsNeverRecycled() {
        Workspace ws = new Workspace();
        float[] user = new float[10];
        ws.give(user);
        assertEquals(0, ws.freeCount());
        assertNotSame(user, ws.take(10));
    }

    @Test
    void anArrayGivenBackTwiceIsLentOnlyOnce() {
        Workspace ws = new Workspace();
        float[] a = ws.take(10);
        ws.give(a);
        ws.give(a);
        assertEquals(1, ws.freeCount());
        float[] first = ws.take(10);
        float[] second = ws.take(10);
        assertSame(a, first);
        assertNotSame(first, second);
    }

    @Test
    void anotherLengthGetsAnotherArrayAndTheFreeListIsBounded() {
        Workspace ws = new Workspace();
        float[] a = ws.take(10);
        ws.give(a);
        assertEquals(11, ws.take(11).length);
        for (int i = 0; i < Workspace.MAX_FREE + 5; i++) {
            ws.give(ws.take(100 + i));
        }
        assertEquals(Workspace.MAX_FREE, ws.freeCount());
    }
}
