package rankgrad.ltr.internal.pairwise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WorkPartitionTest {

    @Test
    void smallQueriesStayWholeAndFillTasks() {
        // Five queries of 10 documents (100 pairs each), 250 pairs a task: cut after 3 queries.
        int[] offsets = {0, 10, 20, 30, 40, 50};
        assertArrayEquals(new int[] {0, 30, 50}, WorkPartition.rowBlocks(offsets, 250));
    }

    @Test
    void largeQueryIsSplitAtAlignedRows() {
        // A query of 300 documents after a small one: its own tasks, 64 rows each (rounded up from 10).
        int[] offsets = {0, 5, 305};
        assertArrayEquals(new int[] {0, 5, 69, 133, 197, 261, 305}, WorkPartition.rowBlocks(offsets, 3000));
    }

    @Test
    void veryLargeQueryGetsAtMostThirtyTwoTasks() {
        // 10,000 rows: pairsPerTask / m = 6 rows, but 32 tasks need 313, rounded up to 320.
        int[] blocks = WorkPartition.rowBlocks(new int[] {0, 10_000}, 65_536);
        assertEquals(32, blocks.length - 1);
        assertEquals(320, blocks[1]);
        assertEquals(10_000, blocks[32]);
    }

    @Test
    void emptyQueriesAndEmptyBatches() {
        assertArrayEquals(new int[] {0}, WorkPartition.rowBlocks(new int[] {0}, 100));
        assertArrayEquals(new int[] {0, 4}, WorkPartition.rowBlocks(new int[] {0, 0, 4, 4}, 100));
        assertEquals(1, WorkPartition.queryOf(new int[] {0, 0, 4, 4, 6}, 0));
        assertEquals(3, WorkPartition.queryOf(new int[] {0, 0, 4, 4, 6}, 5));
        assertArrayEquals(new int[] {0, 2, 3}, WorkPartition.queryBlocks(new int[] {0, 3, 6, 9}, 5));
    }
}
