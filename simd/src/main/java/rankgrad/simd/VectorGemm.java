package rankgrad.simd;

import java.util.Arrays;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import rankgrad.simd.Parallel;
import rankgrad.simd.internal.VectorSupport;

/**
 * Blocked, packed, multi-threaded float32 GEMM on the Vector API: C = op(A) op(B), C m x n.
 *
 * <p><b>Algorithm</b> (the GotoBLAS/BLIS layering, cut down to the small-n shapes of training).
 * op(B) is packed into panels 1 to 3 vectors wide (48 columns with AVX-512), each stored
 * row after row contiguously and zero-padded past column n, so the micro-kernel reads B with unit
 * stride and no masks whatever the transpose. A row-major is not packed: the 8 rows of a strip are
 * 8 contiguous streams, broadcast straight from the caller's array. A stored transposed (X of the
 * weight gradient X^T dY) is packed per k-block into strips of 8 rows, k after k, since read in
 * place a strip's 8 elements of one k sit a whole row of A apart. The micro-kernel holds an
 * 8-row x 3-vector block of C in 24 of the 32 vector registers; per step of k it loads 3 vectors of B, broadcasts 8
 * elements of A and issues 24 fused multiply-adds. A task loops over k-blocks of {@link #KC}, then
 * panels, then 8-row strips, so one panel of B (KC x 48 floats) stays in L1 while the strips of A
 * stream through it. B is packed once per call and shared by all tasks when several row blocks
 * reuse it; otherwise (a single row block, or a split k) each task packs its own k-block of B,
 * in parallel and while it is in cache.
 *
 * <p><b>Determinism.</b> The task partition is a function of (m, n, k) only: C is cut into row
 * blocks of about {@link #MC} rows times column groups of at most {@link #NC_VECTORS} vectors; when
 * that gives fewer than {@link #MIN_BLOCKS} blocks and k is long (the weight gradient X^T dY of a
 * batch), k is also cut into a power-of-two number of chunks (at most {@link #MAX_K_CHUNKS}, none
 * shorter than {@link #MIN_K_CHUNK}), the row blocks grow to {@link #MC_SPLIT} rows so that a task
 * reads whole rows of a transposed A, each chunk is summed into its own partial product, and the
 * partials are added in chunk order. Every element of C is thus the same sequence
 * of fused multiply-adds and additions for any thread count: results are bit-identical with 1 or
 * 16 threads.
 *
 * <p>Thread-safety: no shared mutable state; packing buffers are per thread.
 */
final class VectorGemm {
    private static final VectorSpecies<Float> F = VectorSupport.FLOAT;
    private static final int L = VectorSupport.LANES;

    /** Rows of C per micro-kernel call (8 rows x 3 vectors = 24 of the 32 AVX-512 registers). */
    static final int MR = 8;
    /**
     * Longest k-block: a B panel of KC x 3 vectors (36 KiB with AVX-512) leaves room in a 48 KiB L1
     * for the strip of A streaming through it, and the k = 100 or 136 of a linear layer's forward
     * pass needs a single pass over C. In side-by-side runs here, 128 was slower on the forward
     * shapes (two passes over C) and 256 on X^T dY (A and B no longer fit L1 together).
     */
    static final int KC = 192;
    /** Most rows of C per task (blocks are balanced, each a multiple of MR). */
    static final int MC = 128;
    /** Most vectors of columns of C per task (384 columns with AVX-512). */
    static final int NC_VECTORS = 24;
    /** Below this many blocks of C, a long k is split into chunks to give the threads work. */
    static final int MIN_BLOCKS = 8;
    /** Shortest k chunk worth the extra pass over its partial product. */
    static final int MIN_K_CHUNK = 512;
    /** Most k chunks (a power of two, so 1, 2, 4, 8 and 16 threads share them evenly). */
    static final int MAX_K_CHUNKS = 16;
    /** Most rows of C per task when k is split into chunks. */
    static final int MC_SPLIT = 256;
    /** Elements of C per task when adding the k-chunk partial products. */
    private static final int REDUCE_GRAIN = 1 << 12;
    /** Largest packed-B buffer kept per thread between calls (floats, 64 MiB). */
    private static final int MAX_CACHED_SCRATCH = 1 << 24;

    /** B packed once per call for all tasks, kept by the calling thread. */
    private static final ThreadLocal<float[]> SHARED_SCRATCH = new ThreadLocal<>();
    /** The partial products of k chunks 1, 2, ..., kept by the calling thread. */
    private static final ThreadLocal<float[]> PARTIAL_SCRATCH = new ThreadLocal<>();
    /** One k-block of B packed by a task for itself, kept by the worker thread. */
    private static final ThreadLocal<float[]> TASK_SCRATCH = new ThreadLocal<>();
    /** One k-block of a transposed A packed into strips by a task, kept by the worker thread. */
    private static final ThreadLocal<float[]> A_SCRATCH = new ThreadLocal<>();
    /** The edge tile of C a micro-kernel stores before copying its valid part, kept by the worker thread. */
    private static final ThreadLocal<float[]> TILE_SCRATCH = new ThreadLocal<>();
    /**
     * Vectors of MR = 8 floats (256 bits), the copy unit of {@link #packTransposedA}; null where such vectors
     * would be emulated in software (float vectors narrower than MR), and the copy is scalar.
     */
    private static final VectorSpecies<Float> STRIP = L >= MR ? FloatVector.SPECIES_256 : null;

    private VectorGemm() {
    }

    /** C = op(A) op(B); see {@link Kernels#gemmF32}. */
    static void gemm(boolean transA, boolean transB, int m, int n, int k, float[] a, float[] b, float[] c) {
        checkShapes(m, n, k, a.length, b.length, c.length);
        if (m == 0 || n == 0) {
            return;
        }
        if (k == 0) {
            Arrays.fill(c, 0, m * n, 0f);
            return;
        }
        Plan plan = Plan.of(m, n, k);
        float[] shared = null;
        if (!plan.packPerTask()) {
            float[] packed = scratch(SHARED_SCRATCH, plan.packedSize());
            int blocks = ceilDiv(k, KC);
            Parallel.forEach(plan.panels() * blocks, t -> {
                int j = t / blocks;
                int p0 = (t % blocks) * KC;
                int w = plan.panelVecs()[j] * L;
                packB(transB, b, n, k, plan.panelCol()[j], w, p0, Math.min(k, p0 + KC), packed,
                        plan.panelCol()[j] * k + p0 * w);
            });
            shared = packed;
        }
        float[] packedB = shared;
        // No zero-fill: the first k-block of every task overwrites its block of its chunk's partial.
        float[] partial = plan.kChunks() > 1 ? scratch(PARTIAL_SCRATCH, (plan.kChunks() - 1) * m * n) : null;
        Parallel.forEach(plan.blocks() * plan.kChunks(),
                t -> multiply(transA, transB, a, b, plan, packedB, c, partial, t));
        if (partial != null) {
            int mn = m * n;
            Parallel.forEach(Parallel.tasksFor(mn, REDUCE_GRAIN), t -> addPartials(c, partial, mn, plan.kChunks(),
                    t * REDUCE_GRAIN, Math.min(mn, (t + 1) * REDUCE_GRAIN)));
        }
    }

    /**
     * The task partition and the packed layout of B, functions of (m, n, k) only.
     *
     * @param panelCol first column of each B panel (a multiple of L)
     * @param panelVecs width of each panel in vectors (1 to 3)
     * @param groupStart first panel of each group of columns of C, plus one entry for the end
     * @param rowBlock rows of C per block (a multiple of MR)
     * @param mBlocks number of row blocks
     * @param kChunks number of chunks of k, each summed into its own partial product
     * @param kChunkLen length of each k chunk (the last may be shorter)
     * @param packPerTask each task packs the B it uses, block by block: chosen when no two tasks
     *     share B (a single row block, or k split into chunks), so packing runs in parallel and in cache
     */
    record Plan(int m, int n, int k, int[] panelCol, int[] panelVecs, int[] groupStart, int rowBlock, int mBlocks,
            int kChunks, int kChunkLen, boolean packPerTask) {

        static Plan of(int m, int n, int k) {
            int[] widths = panelWidths(ceilDiv(n, L));
            int[] cols = new int[widths.length];
            for (int j = 1; j < widths.length; j++) {
                cols[j] = cols[j - 1] + widths[j - 1] * L;
            }
            int[] groups = new int[widths.length + 1];
            int g = 0;
            int inGroup = 0;
            for (int j = 0; j < widths.length; j++) {
                if (inGroup > 0 && inGroup + widths[j] > NC_VECTORS) {
                    groups[++g] = j;
                    inGroup = 0;
                }
                inGroup += widths[j];
            }
            groups[++g] = widths.length;
            int mBlocks = ceilDiv(m, MC);
            int rowBlock = roundUp(ceilDiv(m, mBlocks), MR);
            mBlocks = ceilDiv(m, rowBlock);
            int chunks = 1;
            if (mBlocks * g < MIN_BLOCKS) {
                chunks = Math.min(MAX_K_CHUNKS, Integer.highestOneBit(Math.max(1, k / MIN_K_CHUNK)));
            }
            if (chunks > 1) {
                // The threads share the chunks; taller row blocks make each task read whole rows of a
                // transposed A (X of X^T dY) as one contiguous run instead of a slice of every row.
                mBlocks = ceilDiv(m, MC_SPLIT);
                rowBlock = roundUp(ceilDiv(m, mBlocks), MR);
                mBlocks = ceilDiv(m, rowBlock);
            }
            int chunkLen = roundUp(ceilDiv(k, chunks), MR);
            chunks = ceilDiv(k, chunkLen);
            return new Plan(m, n, k, cols, widths, Arrays.copyOf(groups, g + 1), rowBlock, mBlocks, chunks, chunkLen,
                    mBlocks == 1 || chunks > 1);
        }

        /** Panel widths in vectors: as many 3-vector panels as fit, the rest as 2-vector panels. */
        private static int[] panelWidths(int vectors) {
            if (vectors <= 3) {
                return new int[] {vectors};
            }
            int twos = switch (vectors % 3) {
                case 0 -> 0;
                case 1 -> 2;
                default -> 1;
            };
            int threes = (vectors - 2 * twos) / 3;
            int[] w = new int[threes + twos];
            Arrays.fill(w, 0, threes, 3);
            Arrays.fill(w, threes, w.length, 2);
            return w;
        }

        int panels() {
            return panelVecs.length;
        }

        int groups() {
            return groupStart.length - 1;
        }

        /** Blocks of C: row blocks times column groups. */
        int blocks() {
            return mBlocks * groups();
        }

        /** Floats of B packed once for all tasks: k rows of every panel. */
        int packedSize() {
            long size = (long) k * roundUp(n, L);
            if (size > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException("gemm: op(B) of " + k + " x " + n + " is too large to pack in one array");
            }
            return (int) size;
        }
    }

    /**
     * Packs rows [p0, p1) of op(B)'s columns [col0, col0 + w) into dst from dstOff with row stride w,
     * zero past column n, so the micro-kernel reads B unit-stride and mask-free.
     */
    private static void packB(boolean transB, float[] b, int n, int k, int col0, int w, int p0, int p1, float[] dst,
            int dstOff) {
        int valid = Math.min(w, n - col0);
        if (transB) {
            // op(B)[p][col] = b[col * k + p]: read each column of op(B) contiguously.
            for (int jj = 0; jj < valid; jj++) {
                int src = (col0 + jj) * k;
                for (int p = p0, d = dstOff + jj; p < p1; p++, d += w) {
                    dst[d] = b[src + p];
                }
            }
            if (valid < w) {
                for (int p = p0, d = dstOff; p < p1; p++, d += w) {
                    Arrays.fill(dst, d + valid, d + w, 0f);
                }
            }
            return;
        }
        // Whole vectors; the masked load of the partial last vector reads zeros past column n,
        // which pads the panel without a separate fill.
        for (int p = p0, d = dstOff; p < p1; p++, d += w) {
            int src = p * n + col0;
            for (int v = 0; v * L < w; v++) {
                FloatVector x = (v + 1) * L <= valid
                        ? FloatVector.fromArray(F, b, src + v * L)
                        : FloatVector.fromArray(F, b, src + v * L, F.indexInRange(v * L, valid));
                x.intoArray(dst, d + v * L);
            }
        }
    }

    /** Task t: one block of C (row block x column group) over one k chunk, into C or the chunk's partial. */
    private static void multiply(boolean transA, boolean transB, float[] a, float[] b, Plan plan, float[] shared,
            float[] c, float[] partial, int t) {
        int m = plan.m();
        int n = plan.n();
        int k = plan.k();
        int chunk = t / plan.blocks();
        int block = t % plan.blocks();
        int i0 = (block / plan.groups()) * plan.rowBlock();
        int i1 = Math.min(m, i0 + plan.rowBlock());
        int j0 = plan.groupStart()[block % plan.groups()];
        int j1 = plan.groupStart()[block % plan.groups() + 1];
        int kStart = chunk * plan.kChunkLen();
        int kEnd = Math.min(k, kStart + plan.kChunkLen());
        float[] dst = chunk == 0 ? c : partial;
        int dstOff = chunk == 0 ? 0 : (chunk - 1) * m * n;
        int aRs = transA ? 1 : k;
        int aCs = transA ? m : 1;
        float[] tile = scratch(TILE_SCRATCH, MR * 3 * L);
        float[] own = plan.packPerTask() ? scratch(TASK_SCRATCH, KC * NC_VECTORS * L) : null;
        float[] pb = plan.packPerTask() ? own : shared;
        // Equal k-blocks of at most KC: a short last block would pay a full load and store of C.
        int kBlocks = ceilDiv(kEnd - kStart, KC);
        int kcLen = ceilDiv(kEnd - kStart, kBlocks);
        // A stored transposed is packed: read in place, a strip's 8 elements of one k sit a whole
        // row of A apart, and the strided stream ran TN at 0.5-0.7x the rate of the same product
        // with A row-major. Packed, each strip is read contiguously, k after k, by every panel.
        float[] packedA = transA ? scratch(A_SCRATCH, plan.rowBlock() * kcLen) : null;
        float[] src = transA ? packedA : a;
        int srcRs = transA ? 1 : aRs;
        int srcCs = transA ? MR : aCs;
        for (int kb = kStart; kb < kEnd; kb += kcLen) {
            int kc = Math.min(kcLen, kEnd - kb);
            boolean accumulate = kb > kStart;
            if (own != null) {
                for (int j = j0; j < j1; j++) {
                    int w = plan.panelVecs()[j] * L;
                    packB(transB, b, n, k, plan.panelCol()[j], w, kb, kb + kc, own,
                            (plan.panelCol()[j] - plan.panelCol()[j0]) * kc);
                }
            }
            if (transA) {
                packTransposedA(a, m, i0, i1, kb, kc, packedA);
            }
            for (int j = j0; j < j1; j++) {
                int vecs = plan.panelVecs()[j];
                int col0 = plan.panelCol()[j];
                int cols = Math.min(vecs * L, n - col0);
                int pbOff = own != null ? (col0 - plan.panelCol()[j0]) * kc : col0 * k + kb * vecs * L;
                for (int i = i0; i < i1; i += MR) {
                    int rows = Math.min(MR, i1 - i);
                    int aOff = transA ? (i - i0) * kc : i * k + kb;
                    int cOff = dstOff + i * n + col0;
                    switch (vecs) {
                        case 3 -> kernel8x3(src, aOff, srcRs, srcCs, rows, pb, pbOff, kc, dst, cOff, n, cols, accumulate, tile);
                        case 2 -> kernel8x2(src, aOff, srcRs, srcCs, rows, pb, pbOff, kc, dst, cOff, n, cols, accumulate, tile);
                        default -> kernel8x1(src, aOff, srcRs, srcCs, rows, pb, pbOff, kc, dst, cOff, n, cols, accumulate, tile);
                    }
                }
            }
        }
    }

    /**
     * Packs rows [i0, i1) of op(A) = A^T over k in [kb, kb + kc) into strips of MR rows: strip s holds,
     * k after k, the MR elements op(A)[i0 + s MR + r][p] (r = 0..MR-1) at dst[s MR kc + (p - kb) MR + r].
     * Those MR elements are contiguous in A (a[p m + i]), so each k is one 8-float copy. A strip
     * narrower than MR (the edge of C) leaves its last slots unused: the micro-kernel never reads them.
     */
    private static void packTransposedA(float[] a, int m, int i0, int i1, int kb, int kc, float[] dst) {
        for (int i = i0; i < i1; i += MR) {
            int rows = Math.min(MR, i1 - i);
            int d = (i - i0) * kc;
            if (rows == MR && STRIP != null) {
                for (int p = kb; p < kb + kc; p++, d += MR) {
                    FloatVector.fromArray(STRIP, a, p * m + i).intoArray(dst, d);
                }
            } else {
                for (int p = kb; p < kb + kc; p++, d += MR) {
                    System.arraycopy(a, p * m + i, dst, d, rows);
                }
            }
        }
    }

    /** c[from, to) += partial of chunk 1, then of chunk 2, ...: the same order of additions every time. */
    private static void addPartials(float[] c, float[] partial, int mn, int chunks, int from, int to) {
        for (int ch = 1; ch < chunks; ch++) {
            int off = (ch - 1) * mn;
            for (int i = from; i < to; i++) {
                c[i] += partial[off + i];
            }
        }
    }

    /**
     * Copies the first rows x cols of a tile (row stride w, a multiple of L) into C, adding to C when
     * accumulating: whole vectors, then the last columns of a row (cols not a multiple of L, as with
     * n = 100 or 136 of the hidden layers) one by one. A masked vector store here ran in the
     * interpreter in steady state (its bounds-check path is not intrinsified), 3-4% of an epoch; a
     * scalar copy of whole rows cost 5-15% of those products. The sums are those of a scalar copy
     * (x + y = y + x exactly), so C gets the same bits.
     */
    private static void copyTile(float[] tile, int w, int rows, int cols, float[] c, int cOff, int ldc, boolean accumulate) {
        int whole = cols - cols % L;
        for (int r = 0; r < rows; r++) {
            int t = r * w;
            int o = cOff + r * ldc;
            for (int j = 0; j < whole; j += L) {
                FloatVector x = FloatVector.fromArray(F, tile, t + j);
                if (accumulate) {
                    x = x.add(FloatVector.fromArray(F, c, o + j));
                }
                x.intoArray(c, o + j);
            }
            for (int j = whole; j < cols; j++) {
                c[o + j] = accumulate ? c[o + j] + tile[t + j] : tile[t + j];
            }
        }
    }

    /**
     * {@code ceil(x / d)} for {@code d > 0}: the value of Java 18's {@code Math.ceilDiv}, written with
     * Java 8's {@code floorDiv} because the serving floors are compiled for Java 17 (docs/library.md).
     */
    private static int ceilDiv(int x, int d) {
        return -Math.floorDiv(-x, d);
    }

    private static int roundUp(int x, int multiple) {
        return ceilDiv(x, multiple) * multiple;
    }

    /** This thread's buffer of at least {@code size} floats (contents undefined). */
    private static float[] scratch(ThreadLocal<float[]> cache, int size) {
        float[] s = cache.get();
        if (s == null || s.length < size) {
            s = new float[size];
            if (size <= MAX_CACHED_SCRATCH) {
                cache.set(s);
            }
        }
        return s;
    }

    private static void checkShapes(int m, int n, int k, int aLen, int bLen, int cLen) {
        if (m < 0 || n < 0 || k < 0) {
            throw new IllegalArgumentException("gemm: negative size m=" + m + " n=" + n + " k=" + k);
        }
        if ((long) m * k > aLen || (long) k * n > bLen || (long) m * n > cLen) {
            throw new IllegalArgumentException("gemm: arrays too short for m=" + m + " n=" + n + " k=" + k
                    + ": A has " + aLen + " (needs " + (long) m * k + "), B has " + bLen + " (needs " + (long) k * n
                    + "), C has " + cLen + " (needs " + (long) m * n + ")");
        }
    }

    /**
     * C[rows x cols] = (C +) op(A)[rows x kc] Bpanel[kc x 3L], the block held in 8 x 3 vector
     * registers. A full block goes straight to C; a block at the edge of C goes through {@code tile}.
     */
    private static void kernel8x3(float[] a, int aOff, int aRs, int aCs, int rows, float[] pb, int pbOff,
            int kc, float[] c, int cOff, int ldc, int cols, boolean accumulate, float[] tile) {
        // Rows past the edge of C re-read the last valid row of A (the loop stays branch-free) and are not stored.
        int a0 = aOff;
        int a1 = aOff + Math.min(1, rows - 1) * aRs;
        int a2 = aOff + Math.min(2, rows - 1) * aRs;
        int a3 = aOff + Math.min(3, rows - 1) * aRs;
        int a4 = aOff + Math.min(4, rows - 1) * aRs;
        int a5 = aOff + Math.min(5, rows - 1) * aRs;
        int a6 = aOff + Math.min(6, rows - 1) * aRs;
        int a7 = aOff + Math.min(7, rows - 1) * aRs;
        FloatVector zero = FloatVector.zero(F);
        FloatVector c00 = zero; FloatVector c01 = zero; FloatVector c02 = zero;
        FloatVector c10 = zero; FloatVector c11 = zero; FloatVector c12 = zero;
        FloatVector c20 = zero; FloatVector c21 = zero; FloatVector c22 = zero;
        FloatVector c30 = zero; FloatVector c31 = zero; FloatVector c32 = zero;
        FloatVector c40 = zero; FloatVector c41 = zero; FloatVector c42 = zero;
        FloatVector c50 = zero; FloatVector c51 = zero; FloatVector c52 = zero;
        FloatVector c60 = zero; FloatVector c61 = zero; FloatVector c62 = zero;
        FloatVector c70 = zero; FloatVector c71 = zero; FloatVector c72 = zero;
        for (int p = 0, q = 0, bo = pbOff; p < kc; p++, q += aCs, bo += 3 * L) {
            FloatVector b0 = FloatVector.fromArray(F, pb, bo);
            FloatVector b1 = FloatVector.fromArray(F, pb, bo + L);
            FloatVector b2 = FloatVector.fromArray(F, pb, bo + 2 * L);
            FloatVector x = FloatVector.broadcast(F, a[a0 + q]);
            c00 = x.fma(b0, c00); c01 = x.fma(b1, c01); c02 = x.fma(b2, c02);
            x = FloatVector.broadcast(F, a[a1 + q]);
            c10 = x.fma(b0, c10); c11 = x.fma(b1, c11); c12 = x.fma(b2, c12);
            x = FloatVector.broadcast(F, a[a2 + q]);
            c20 = x.fma(b0, c20); c21 = x.fma(b1, c21); c22 = x.fma(b2, c22);
            x = FloatVector.broadcast(F, a[a3 + q]);
            c30 = x.fma(b0, c30); c31 = x.fma(b1, c31); c32 = x.fma(b2, c32);
            x = FloatVector.broadcast(F, a[a4 + q]);
            c40 = x.fma(b0, c40); c41 = x.fma(b1, c41); c42 = x.fma(b2, c42);
            x = FloatVector.broadcast(F, a[a5 + q]);
            c50 = x.fma(b0, c50); c51 = x.fma(b1, c51); c52 = x.fma(b2, c52);
            x = FloatVector.broadcast(F, a[a6 + q]);
            c60 = x.fma(b0, c60); c61 = x.fma(b1, c61); c62 = x.fma(b2, c62);
            x = FloatVector.broadcast(F, a[a7 + q]);
            c70 = x.fma(b0, c70); c71 = x.fma(b1, c71); c72 = x.fma(b2, c72);
        }
        if (rows == 8 && cols == 3 * L) {
            if (accumulate) {
                c00 = c00.add(FloatVector.fromArray(F, c, cOff));
                c01 = c01.add(FloatVector.fromArray(F, c, cOff + L));
                c02 = c02.add(FloatVector.fromArray(F, c, cOff + 2 * L));
                c10 = c10.add(FloatVector.fromArray(F, c, cOff + ldc));
                c11 = c11.add(FloatVector.fromArray(F, c, cOff + ldc + L));
                c12 = c12.add(FloatVector.fromArray(F, c, cOff + ldc + 2 * L));
                c20 = c20.add(FloatVector.fromArray(F, c, cOff + 2 * ldc));
                c21 = c21.add(FloatVector.fromArray(F, c, cOff + 2 * ldc + L));
                c22 = c22.add(FloatVector.fromArray(F, c, cOff + 2 * ldc + 2 * L));
                c30 = c30.add(FloatVector.fromArray(F, c, cOff + 3 * ldc));
                c31 = c31.add(FloatVector.fromArray(F, c, cOff + 3 * ldc + L));
                c32 = c32.add(FloatVector.fromArray(F, c, cOff + 3 * ldc + 2 * L));
                c40 = c40.add(FloatVector.fromArray(F, c, cOff + 4 * ldc));
                c41 = c41.add(FloatVector.fromArray(F, c, cOff + 4 * ldc + L));
                c42 = c42.add(FloatVector.fromArray(F, c, cOff + 4 * ldc + 2 * L));
                c50 = c50.add(FloatVector.fromArray(F, c, cOff + 5 * ldc));
                c51 = c51.add(FloatVector.fromArray(F, c, cOff + 5 * ldc + L));
                c52 = c52.add(FloatVector.fromArray(F, c, cOff + 5 * ldc + 2 * L));
                c60 = c60.add(FloatVector.fromArray(F, c, cOff + 6 * ldc));
                c61 = c61.add(FloatVector.fromArray(F, c, cOff + 6 * ldc + L));
                c62 = c62.add(FloatVector.fromArray(F, c, cOff + 6 * ldc + 2 * L));
                c70 = c70.add(FloatVector.fromArray(F, c, cOff + 7 * ldc));
                c71 = c71.add(FloatVector.fromArray(F, c, cOff + 7 * ldc + L));
                c72 = c72.add(FloatVector.fromArray(F, c, cOff + 7 * ldc + 2 * L));
            }
            c00.intoArray(c, cOff);
            c01.intoArray(c, cOff + L);
            c02.intoArray(c, cOff + 2 * L);
            c10.intoArray(c, cOff + ldc);
            c11.intoArray(c, cOff + ldc + L);
            c12.intoArray(c, cOff + ldc + 2 * L);
            c20.intoArray(c, cOff + 2 * ldc);
            c21.intoArray(c, cOff + 2 * ldc + L);
            c22.intoArray(c, cOff + 2 * ldc + 2 * L);
            c30.intoArray(c, cOff + 3 * ldc);
            c31.intoArray(c, cOff + 3 * ldc + L);
            c32.intoArray(c, cOff + 3 * ldc + 2 * L);
            c40.intoArray(c, cOff + 4 * ldc);
            c41.intoArray(c, cOff + 4 * ldc + L);
            c42.intoArray(c, cOff + 4 * ldc + 2 * L);
            c50.intoArray(c, cOff + 5 * ldc);
            c51.intoArray(c, cOff + 5 * ldc + L);
            c52.intoArray(c, cOff + 5 * ldc + 2 * L);
            c60.intoArray(c, cOff + 6 * ldc);
            c61.intoArray(c, cOff + 6 * ldc + L);
            c62.intoArray(c, cOff + 6 * ldc + 2 * L);
            c70.intoArray(c, cOff + 7 * ldc);
            c71.intoArray(c, cOff + 7 * ldc + L);
            c72.intoArray(c, cOff + 7 * ldc + 2 * L);
        } else {
            c00.intoArray(tile, 0);
            c01.intoArray(tile, L);
            c02.intoArray(tile, 2 * L);
            c10.intoArray(tile, 3 * L);
            c11.intoArray(tile, 4 * L);
            c12.intoArray(tile, 5 * L);
            c20.intoArray(tile, 6 * L);
            c21.intoArray(tile, 7 * L);
            c22.intoArray(tile, 8 * L);
            c30.intoArray(tile, 9 * L);
            c31.intoArray(tile, 10 * L);
            c32.intoArray(tile, 11 * L);
            c40.intoArray(tile, 12 * L);
            c41.intoArray(tile, 13 * L);
            c42.intoArray(tile, 14 * L);
            c50.intoArray(tile, 15 * L);
            c51.intoArray(tile, 16 * L);
            c52.intoArray(tile, 17 * L);
            c60.intoArray(tile, 18 * L);
            c61.intoArray(tile, 19 * L);
            c62.intoArray(tile, 20 * L);
            c70.intoArray(tile, 21 * L);
            c71.intoArray(tile, 22 * L);
            c72.intoArray(tile, 23 * L);
            copyTile(tile, 3 * L, rows, cols, c, cOff, ldc, accumulate);
        }
    }

    /** The 8 x 2-vector micro-kernel; see {@link #kernel8x3}. */
    private static void kernel8x2(float[] a, int aOff, int aRs, int aCs, int rows, float[] pb, int pbOff,
            int kc, float[] c, int cOff, int ldc, int cols, boolean accumulate, float[] tile) {
        // Rows past the edge of C re-read the last valid row of A (the loop stays branch-free) and are not stored.
        int a0 = aOff;
        int a1 = aOff + Math.min(1, rows - 1) * aRs;
        int a2 = aOff + Math.min(2, rows - 1) * aRs;
        int a3 = aOff + Math.min(3, rows - 1) * aRs;
        int a4 = aOff + Math.min(4, rows - 1) * aRs;
        int a5 = aOff + Math.min(5, rows - 1) * aRs;
        int a6 = aOff + Math.min(6, rows - 1) * aRs;
        int a7 = aOff + Math.min(7, rows - 1) * aRs;
        FloatVector zero = FloatVector.zero(F);
        FloatVector c00 = zero; FloatVector c01 = zero;
        FloatVector c10 = zero; FloatVector c11 = zero;
        FloatVector c20 = zero; FloatVector c21 = zero;
        FloatVector c30 = zero; FloatVector c31 = zero;
        FloatVector c40 = zero; FloatVector c41 = zero;
        FloatVector c50 = zero; FloatVector c51 = zero;
        FloatVector c60 = zero; FloatVector c61 = zero;
        FloatVector c70 = zero; FloatVector c71 = zero;
        for (int p = 0, q = 0, bo = pbOff; p < kc; p++, q += aCs, bo += 2 * L) {
            FloatVector b0 = FloatVector.fromArray(F, pb, bo);
            FloatVector b1 = FloatVector.fromArray(F, pb, bo + L);
            FloatVector x = FloatVector.broadcast(F, a[a0 + q]);
            c00 = x.fma(b0, c00); c01 = x.fma(b1, c01);
            x = FloatVector.broadcast(F, a[a1 + q]);
            c10 = x.fma(b0, c10); c11 = x.fma(b1, c11);
            x = FloatVector.broadcast(F, a[a2 + q]);
            c20 = x.fma(b0, c20); c21 = x.fma(b1, c21);
            x = FloatVector.broadcast(F, a[a3 + q]);
            c30 = x.fma(b0, c30); c31 = x.fma(b1, c31);
            x = FloatVector.broadcast(F, a[a4 + q]);
            c40 = x.fma(b0, c40); c41 = x.fma(b1, c41);
            x = FloatVector.broadcast(F, a[a5 + q]);
            c50 = x.fma(b0, c50); c51 = x.fma(b1, c51);
            x = FloatVector.broadcast(F, a[a6 + q]);
            c60 = x.fma(b0, c60); c61 = x.fma(b1, c61);
            x = FloatVector.broadcast(F, a[a7 + q]);
            c70 = x.fma(b0, c70); c71 = x.fma(b1, c71);
        }
        if (rows == 8 && cols == 2 * L) {
            if (accumulate) {
                c00 = c00.add(FloatVector.fromArray(F, c, cOff));
                c01 = c01.add(FloatVector.fromArray(F, c, cOff + L));
                c10 = c10.add(FloatVector.fromArray(F, c, cOff + ldc));
                c11 = c11.add(FloatVector.fromArray(F, c, cOff + ldc + L));
                c20 = c20.add(FloatVector.fromArray(F, c, cOff + 2 * ldc));
                c21 = c21.add(FloatVector.fromArray(F, c, cOff + 2 * ldc + L));
                c30 = c30.add(FloatVector.fromArray(F, c, cOff + 3 * ldc));
                c31 = c31.add(FloatVector.fromArray(F, c, cOff + 3 * ldc + L));
                c40 = c40.add(FloatVector.fromArray(F, c, cOff + 4 * ldc));
                c41 = c41.add(FloatVector.fromArray(F, c, cOff + 4 * ldc + L));
                c50 = c50.add(FloatVector.fromArray(F, c, cOff + 5 * ldc));
                c51 = c51.add(FloatVector.fromArray(F, c, cOff + 5 * ldc + L));
                c60 = c60.add(FloatVector.fromArray(F, c, cOff + 6 * ldc));
                c61 = c61.add(FloatVector.fromArray(F, c, cOff + 6 * ldc + L));
                c70 = c70.add(FloatVector.fromArray(F, c, cOff + 7 * ldc));
                c71 = c71.add(FloatVector.fromArray(F, c, cOff + 7 * ldc + L));
            }
            c00.intoArray(c, cOff);
            c01.intoArray(c, cOff + L);
            c10.intoArray(c, cOff + ldc);
            c11.intoArray(c, cOff + ldc + L);
            c20.intoArray(c, cOff + 2 * ldc);
            c21.intoArray(c, cOff + 2 * ldc + L);
            c30.intoArray(c, cOff + 3 * ldc);
            c31.intoArray(c, cOff + 3 * ldc + L);
            c40.intoArray(c, cOff + 4 * ldc);
            c41.intoArray(c, cOff + 4 * ldc + L);
            c50.intoArray(c, cOff + 5 * ldc);
            c51.intoArray(c, cOff + 5 * ldc + L);
            c60.intoArray(c, cOff + 6 * ldc);
            c61.intoArray(c, cOff + 6 * ldc + L);
            c70.intoArray(c, cOff + 7 * ldc);
            c71.intoArray(c, cOff + 7 * ldc + L);
        } else {
            c00.intoArray(tile, 0);
            c01.intoArray(tile, L);
            c10.intoArray(tile, 2 * L);
            c11.intoArray(tile, 3 * L);
            c20.intoArray(tile, 4 * L);
            c21.intoArray(tile, 5 * L);
            c30.intoArray(tile, 6 * L);
            c31.intoArray(tile, 7 * L);
            c40.intoArray(tile, 8 * L);
            c41.intoArray(tile, 9 * L);
            c50.intoArray(tile, 10 * L);
            c51.intoArray(tile, 11 * L);
            c60.intoArray(tile, 12 * L);
            c61.intoArray(tile, 13 * L);
            c70.intoArray(tile, 14 * L);
            c71.intoArray(tile, 15 * L);
            copyTile(tile, 2 * L, rows, cols, c, cOff, ldc, accumulate);
        }
    }

    /** The 8 x 1-vector micro-kernel; see {@link #kernel8x3}. */
    private static void kernel8x1(float[] a, int aOff, int aRs, int aCs, int rows, float[] pb, int pbOff,
            int kc, float[] c, int cOff, int ldc, int cols, boolean accumulate, float[] tile) {
        // Rows past the edge of C re-read the last valid row of A (the loop stays branch-free) and are not stored.
        int a0 = aOff;
        int a1 = aOff + Math.min(1, rows - 1) * aRs;
        int a2 = aOff + Math.min(2, rows - 1) * aRs;
        int a3 = aOff + Math.min(3, rows - 1) * aRs;
        int a4 = aOff + Math.min(4, rows - 1) * aRs;
        int a5 = aOff + Math.min(5, rows - 1) * aRs;
        int a6 = aOff + Math.min(6, rows - 1) * aRs;
        int a7 = aOff + Math.min(7, rows - 1) * aRs;
        FloatVector zero = FloatVector.zero(F);
        FloatVector c00 = zero;
        FloatVector c10 = zero;
        FloatVector c20 = zero;
        FloatVector c30 = zero;
        FloatVector c40 = zero;
        FloatVector c50 = zero;
        FloatVector c60 = zero;
        FloatVector c70 = zero;
        for (int p = 0, q = 0, bo = pbOff; p < kc; p++, q += aCs, bo += 1 * L) {
            FloatVector b0 = FloatVector.fromArray(F, pb, bo);
            FloatVector x = FloatVector.broadcast(F, a[a0 + q]);
            c00 = x.fma(b0, c00);
            x = FloatVector.broadcast(F, a[a1 + q]);
            c10 = x.fma(b0, c10);
            x = FloatVector.broadcast(F, a[a2 + q]);
            c20 = x.fma(b0, c20);
            x = FloatVector.broadcast(F, a[a3 + q]);
            c30 = x.fma(b0, c30);
            x = FloatVector.broadcast(F, a[a4 + q]);
            c40 = x.fma(b0, c40);
            x = FloatVector.broadcast(F, a[a5 + q]);
            c50 = x.fma(b0, c50);
            x = FloatVector.broadcast(F, a[a6 + q]);
            c60 = x.fma(b0, c60);
            x = FloatVector.broadcast(F, a[a7 + q]);
            c70 = x.fma(b0, c70);
        }
        if (rows == 8 && cols == 1 * L) {
            if (accumulate) {
                c00 = c00.add(FloatVector.fromArray(F, c, cOff));
                c10 = c10.add(FloatVector.fromArray(F, c, cOff + ldc));
                c20 = c20.add(FloatVector.fromArray(F, c, cOff + 2 * ldc));
                c30 = c30.add(FloatVector.fromArray(F, c, cOff + 3 * ldc));
                c40 = c40.add(FloatVector.fromArray(F, c, cOff + 4 * ldc));
                c50 = c50.add(FloatVector.fromArray(F, c, cOff + 5 * ldc));
                c60 = c60.add(FloatVector.fromArray(F, c, cOff + 6 * ldc));
                c70 = c70.add(FloatVector.fromArray(F, c, cOff + 7 * ldc));
            }
            c00.intoArray(c, cOff);
            c10.intoArray(c, cOff + ldc);
            c20.intoArray(c, cOff + 2 * ldc);
            c30.intoArray(c, cOff + 3 * ldc);
            c40.intoArray(c, cOff + 4 * ldc);
            c50.intoArray(c, cOff + 5 * ldc);
            c60.intoArray(c, cOff + 6 * ldc);
            c70.intoArray(c, cOff + 7 * ldc);
        } else {
            c00.intoArray(tile, 0);
            c10.intoArray(tile, L);
            c20.intoArray(tile, 2 * L);
            c30.intoArray(tile, 3 * L);
            c40.intoArray(tile, 4 * L);
            c50.intoArray(tile, 5 * L);
            c60.intoArray(tile, 6 * L);
            c70.intoArray(tile, 7 * L);
            copyTile(tile, 1 * L, rows, cols, c, cOff, ldc, accumulate);
        }
    }
}
