package decode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// readLog is an in-memory io.ReaderAt that logs its reads.
type readLog struct {
	data  []byte
	mu    sync.Mutex
	reads []span // off, n
}

func (l *readLog) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	l.reads = append(l.reads, span{off, int64(len(p))})
	l.mu.Unlock()
	return bytes.NewReader(l.data).ReadAt(p, off)
}

// since returns the reads after the first k, by offset.
func (l *readLog) since(k int) []span {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]span(nil), l.reads[k:]...)
	sort.Slice(out, func(i, j int) bool { return out[i].off < out[j].off })
	return out
}

// imageBatch writes an IPC file of one record batch of rows rows: an int64
// id, a 64×64×4 uint8 image tensor (row r's elements r+k), a float32 score
// and a string label of labelLen bytes ("r" then dots).
func imageBatch(t testing.TB, rows, labelLen int) []byte {
	return imageBatches(t, labelLen, rows)
}

// imageBatches is imageBatch with a record batch of each number of rows
// given (rows numbered within their batch).
func imageBatches(t testing.TB, labelLen int, batches ...int) []byte {
	var schema *arrow.Schema
	var recs []arrow.RecordBatch
	for _, rows := range batches {
		var rec arrow.RecordBatch
		schema, rec = imageRecord(t, rows, labelLen)
		recs = append(recs, rec)
	}
	return testkit.IPCFile(t, schema, recs...)
}

func imageRecord(t testing.TB, rows, labelLen int) (*arrow.Schema, arrow.RecordBatch) {
	mem := memory.DefaultAllocator
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{64, 64, 4}, nil, []string{"H", "W", "C"})
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: typ, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.BinaryTypes.String},
	}, nil)
	ids, scores, labels := array.NewInt64Builder(mem), array.NewFloat32Builder(mem), array.NewStringBuilder(mem)
	images := tensorext.NewFixedShapeTensorBuilder(mem, typ)
	for r := range rows {
		ids.Append(int64(r))
		px := make([]uint8, 64*64*4)
		for k := range px {
			px[k] = uint8(r + k)
		}
		if err := images.AppendTensor(px); err != nil {
			t.Fatal(err)
		}
		scores.Append(float32(r) / 2)
		label := fmt.Sprint(r)
		labels.Append(label + strings.Repeat(".", labelLen-len(label)))
	}
	return schema, array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), images.NewArray(), scores.NewArray(), labels.NewArray()}, int64(rows))
}

// TestWindowReadsAtOnce: the first window of a big record batch of images
// is read in one round of reads, each byte once: the tensors' bytes of
// its rows in one read, exactly; the small columns from the file's cached
// ends when they lie there (short labels), else in one more read around
// them (long labels, whose place is guessed before their offsets are read),
// reading ahead for the next windows.
// Every cell of the window reads right, and so does a later window.
func TestWindowReadsAtOnce(t *testing.T) {
	const rows, tensorBytes = 200, 64 * 64 * 4
	for _, tc := range []struct {
		labelLen int
		reads    int
	}{{8, 1}, {1000, 2}} {
		t.Run(fmt.Sprintf("labels of %d bytes", tc.labelLen), func(t *testing.T) {
			data := imageBatch(t, rows, tc.labelLen)
			l := &readLog{data: data}
			f, err := OpenReader("images.arrow", l, int64(len(data)), Options{Budget: 8 << 20})
			if err != nil {
				t.Fatal(err)
			}
			_, win, ok := f.Window(0)
			if !ok || win != 0 {
				t.Fatalf("Chunk(0): window %d, %v; want window 0 (the batch read by windows)", win, ok)
			}
			b, _, _ := f.index.batchAt(0)
			w := b.windowRows(f.budget) // an eighth of the budget, 1 MiB, over 16 KiB and more a row, in eights
			if w != 56 {
				t.Fatalf("window of %d rows, want 56", w)
			}
			opened := len(l.since(0))
			if err := f.Load(0); err != nil {
				t.Fatal(err)
			}
			reads := l.since(opened)
			if len(reads) != tc.reads {
				t.Fatalf("the first window took %d reads %v, want %d", len(reads), reads, tc.reads)
			}
			// The window's tensors, but those of their bytes the file's
			// cached head holds.
			at := int64(bytes.Index(data, []byte{0, 1, 2, 3, 4, 5, 6, 7})) // row 0's tensor
			tensor := span{max(at, endsChunk), at + w*tensorBytes - max(at, endsChunk)}
			if !slices.Contains(reads, tensor) {
				t.Fatalf("no read %v of the window's %d tensor bytes at %d: %v", tensor, w*tensorBytes, at, reads)
			}
			for k := 1; k < len(reads); k++ {
				if reads[k].off < reads[k-1].off+reads[k-1].n {
					t.Fatalf("reads overlap: %v", reads)
				}
			}
			if len(reads) == 2 {
				other := reads[0]
				if other == tensor {
					other = reads[1]
				}
				// Score (4 bytes a row), label offsets (4) and values
				// (labelLen) of the rows, and the guess's slack; or the
				// read-ahead for the next windows, if longer.
				most := w*(4+4+int64(tc.labelLen)) + 2*(w*int64(tc.labelLen)/4+4<<10) + 64
				if other.n > max(most, readAhead) {
					t.Fatalf("the small columns' read is %d bytes, want at most %d", other.n, most)
				}
			}
			for _, row := range []int64{0, 1, 55, 56, 199} {
				if got := valueText(f, row, 0); got != fmt.Sprint(row) {
					t.Fatalf("row %d: id %q", row, got)
				}
				if got, want := valueText(f, row, 2), fmt.Sprint(float32(row)/2); got != want {
					t.Fatalf("row %d: score %q, want %q", row, got, want)
				}
				label := fmt.Sprint(row)
				if got, want := valueText(f, row, 3), label+strings.Repeat(".", tc.labelLen-len(label)); got != want {
					t.Fatalf("row %d: label %q, want %q", row, got, want)
				}
				tt, err := f.Tensor(row, 1)
				if err != nil {
					t.Fatal(err)
				}
				pos, _ := tt.Pos(63, 63, 3)
				if v, _ := tt.Float64(pos); v != float64(uint8(int(row)+tensorBytes-1)) {
					t.Fatalf("row %d: image[63][63][3] = %v, want %d", row, v, uint8(int(row)+tensorBytes-1))
				}
			}
		})
	}
}

var _ io.ReaderAt = (*readLog)(nil)

// TestLayoutCacheBounded: the headers kept for row-window reads stay within
// maxLayouts whatever number of batches is read (a crafted footer may list
// any number), and the last one put is there.
func TestLayoutCacheBounded(t *testing.T) {
	var c layoutCache
	for off := int64(0); off < 10*maxLayouts; off++ {
		c.put(off, batchLayoutAt{metaLen: off})
		if len(c.m) > maxLayouts {
			t.Fatalf("%d headers kept after %d puts, want at most %d", len(c.m), off+1, maxLayouts)
		}
		if l, ok := c.get(off); !ok || l.metaLen != off {
			t.Fatalf("header at %d: %+v, %v; want the one just put", off, l, ok)
		}
	}
}

// overlapLog is a readLog that also records whether a read started
// while another was under way.
type overlapLog struct {
	readLog
	inflight atomic.Int32
	overlap  atomic.Bool
}

func (o *overlapLog) ReadAt(p []byte, off int64) (int, error) {
	if o.inflight.Add(1) > 1 {
		o.overlap.Store(true)
	}
	defer o.inflight.Add(-1)
	for range 10 {
		runtime.Gosched() // reads made at once would start meanwhile
	}
	return o.readLog.ReadAt(p, off)
}

// TestFirstWindowReadsAtOnce: the reads of a file's first row window are
// made at the same time (the first screen waits for them, and nothing
// else reads the file yet): both of the first window's reads of a batch
// with long labels are under way together. A later window's reads go one
// after another, and every cell of both windows reads right.
func TestFirstWindowReadsAtOnce(t *testing.T) {
	data := imageBatch(t, 200, 4000)
	f, g := openGated(t, data, 0, Options{Budget: 8 << 20})
	b, _, _ := f.index.batchAt(0)
	if w := b.windowRows(f.budget); w != 48 {
		t.Fatalf("window of %d rows, want 48", w)
	}
	g.gated.Store(true)
	done := make(chan error, 1)
	go func() { done <- f.Load(0) }()
	sizes := []int{within(t, g.calls, "first read"), within(t, g.calls, "second read made while the first is under way")}
	sort.Ints(sizes)
	release(t, g)
	release(t, g)
	if err := within(t, done, "Load(0)"); err != nil {
		t.Fatal(err)
	}
	// The small columns (scores, label offsets and values: their guessed
	// place read ahead to 256 KiB) and the 48 rows' tensors, but those of
	// their bytes the file's cached tail holds (they end the file).
	if want := []int{readAhead, 48 * 64 * 64 * 4}; sizes[0] != want[0] || sizes[1] > want[1] || sizes[1] < want[1]-endsChunk {
		t.Fatalf("first window's reads of %v bytes, want %v", sizes, want)
	}
	g.gated.Store(false)

	// Rows 144..191: their labels lie past what the first window read ahead.
	l := &overlapLog{readLog: readLog{data: data}}
	f.ends = f.ends.with(l)
	if err := f.Load(150); err != nil {
		t.Fatal(err)
	}
	if reads := l.since(0); len(reads) != 2 {
		t.Fatalf("rows 144..191 took %d reads %v, want 2", len(reads), reads)
	}
	if l.overlap.Load() {
		t.Fatal("a later window's reads overlapped")
	}
	for _, row := range []int64{0, 47, 144, 191} {
		label := fmt.Sprint(row)
		if got, want := valueText(f, row, 3), label+strings.Repeat(".", 4000-len(label)); got != want {
			t.Fatalf("row %d: label %q, want %q", row, got, want)
		}
		tt, err := f.Tensor(row, 1)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ := tt.Pos(10, 20, 2)
		if v, _ := tt.Float64(pos); v != float64(uint8(int(row)+(10*64+20)*4+2)) {
			t.Fatalf("row %d: image[10][20][2] = %v, want %d", row, v, uint8(int(row)+(10*64+20)*4+2))
		}
	}
}

// smallRowsBatch writes an IPC file of one record batch of rows rows: an
// int64 id, a 10×10 uint8 tensor (row r's elements r+k), a float32 score
// and an 8-byte string label, so that in a batch of many rows each small
// column's buffer is far longer than a window's share of it.
func smallRowsBatch(t testing.TB, rows int) []byte {
	mem := memory.DefaultAllocator
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{10, 10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "t", Type: typ},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.BinaryTypes.String},
	}, nil)
	ids, scores, labels := array.NewInt64Builder(mem), array.NewFloat32Builder(mem), array.NewStringBuilder(mem)
	ts := tensorext.NewFixedShapeTensorBuilder(mem, typ)
	px := make([]uint8, 100)
	for r := range rows {
		ids.Append(int64(r))
		for k := range px {
			px[k] = uint8(r + k)
		}
		if err := ts.AppendTensor(px); err != nil {
			t.Fatal(err)
		}
		scores.Append(float32(r) / 4)
		labels.Append(fmt.Sprintf("l%07d", r))
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), ts.NewArray(), scores.NewArray(), labels.NewArray()}, int64(rows))
	return testkit.IPCFile(t, schema, rec)
}

// TestTouchingReadAheadsReadAsOne: in a batch of many small rows, a
// window's scores, label offsets and label values lie more than the
// merging gap apart, but each one's read-ahead reaches the next: they are
// read as one range (the old planner read them one after another, in
// three). Every cell of the window reads right.
func TestTouchingReadAheadsReadAsOne(t *testing.T) {
	const rows = 40000
	data := smallRowsBatch(t, rows)
	l := &readLog{data: data}
	f, err := OpenReader("small-rows.arrow", l, int64(len(data)), Options{Budget: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	opened := len(l.since(0))
	if err := f.Load(0); err != nil {
		t.Fatal(err)
	}
	// The body starts at byte 872: the ids (8 bytes a row) read ahead to
	// 256 KiB; the window's 8456 tensors (1 MiB / 124 bytes a row, in
	// eights) exactly; then from the scores (4 bytes a row) on, up to the
	// label offsets (4 a row and one, padded to 8), the label values, and
	// 256 KiB of them: one read. What the file's cached ends hold (its
	// first and last endsChunk bytes) is not read again.
	last := int64(872 + rows*8 + rows*100)
	want := []span{{endsChunk, 872 + readAhead - endsChunk}, {872 + rows*8, 8456 * 100}, {last, min(rows*4+160008+readAhead, int64(len(data))-endsChunk-last)}}
	if got := l.since(opened); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the first window's reads %v, want %v", got, want)
	}
	for _, row := range []int64{0, 1, 8455, 8456, 20000, rows - 1} {
		if got := valueText(f, row, 0); got != fmt.Sprint(row) {
			t.Fatalf("row %d: id %q", row, got)
		}
		if got, want := valueText(f, row, 2), fmt.Sprint(float32(row)/4); got != want {
			t.Fatalf("row %d: score %q, want %q", row, got, want)
		}
		if got, want := valueText(f, row, 3), fmt.Sprintf("l%07d", row); got != want {
			t.Fatalf("row %d: label %q, want %q", row, got, want)
		}
		tt, err := f.Tensor(row, 1)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ := tt.Pos(9, 9)
		if v, _ := tt.Float64(pos); v != float64(uint8(int(row)+99)) {
			t.Fatalf("row %d: t[9][9] = %v, want %d", row, v, uint8(int(row)+99))
		}
	}
}

// TestFirstRowsWholeThenWindowOneByOne: when a file's first rows are a
// record batch read whole, the first row window read after it is a later
// screen's: its reads go one after another.
func TestFirstRowsWholeThenWindowOneByOne(t *testing.T) {
	data := imageBatches(t, 4000, 8, 200)
	l := &overlapLog{readLog: readLog{data: data}}
	f, err := OpenReader("images.arrow", l, int64(len(data)), Options{Budget: 8 << 20, SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, win, ok := f.Window(0); !ok || win != -1 {
		t.Fatalf("Chunk(0): window %d, %v; want the first batch read whole", win, ok)
	}
	if err := f.Load(0); err != nil {
		t.Fatal(err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	opened := len(l.since(0))
	l.overlap.Store(false) // Open reads the file's two ends at once
	if _, win, ok := f.Window(8 + 150); !ok || win != 3 {
		t.Fatalf("Chunk(158): window %d, %v; want window 3 of the second batch", win, ok)
	}
	if err := f.Load(8 + 150); err != nil {
		t.Fatal(err)
	}
	// Its header, then the window's ranges: ids, tensors, scores and
	// label offsets, label values.
	if reads := l.since(opened); len(reads) != 5 || reads[2].n != 48*64*64*4 {
		t.Fatalf("rows 144..191 of the second batch took %d reads %v, want 5 (the header, ids, tensors, scores and label offsets, label values)", len(reads), reads)
	}
	if l.overlap.Load() {
		t.Fatal("the reads of a window after the first rows overlapped")
	}
	label := "150" + strings.Repeat(".", 4000-3)
	if got, want := valueText(f, 8+150, 3), label; got != want {
		t.Fatalf("row 158: label %q, want %q", got, want)
	}
}
