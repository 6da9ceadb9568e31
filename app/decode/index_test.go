package decode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// unevenFile writes an IPC file of batches record batches, batch i of
// rows(i) rows, with one int64 column "id" holding the global row number
// and a utf8 column "s" of "row <id>".
func unevenFile(t *testing.T, batches int, rows func(i int) int) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String},
	}, nil)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	for i := range batches {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		ss := array.NewStringBuilder(memory.DefaultAllocator)
		for range rows(i) {
			ids.Append(id)
			ss.Append(fmt.Sprintf("row %d", id))
			id++
		}
		cols := []arrow.Array{ids.NewArray(), ss.NewArray()}
		rec := array.NewRecordBatch(schema, cols, int64(rows(i)))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		cols[0].Release()
		cols[1].Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIndexReadsEachHeaderOnce: Index reads the headers of an IPC file's
// record batches several at a time, and callers that ask for one header at
// the same time (three Index calls, a scan's BatchRowCount) share its one
// read: the file is read once per batch header, and the row count is
// exact.
func TestIndexReadsEachHeaderOnce(t *testing.T) {
	const batches = 120
	rows := func(i int) int { return 200 + i%7 } // 4 KB a batch: most headers lie past the cached ends
	data := unevenFile(t, batches, rows)
	r := &countingReader{data: data}
	f, err := OpenReader("x.arrow", yielding{r}, int64(len(data)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	opened := r.reads.Load()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for k := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = f.Index(context.Background(), nil)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range batches {
			if n, err := f.BatchRowCount(i); err != nil || n != int64(rows(i)) {
				errs[3] = fmt.Errorf("BatchRowCount(%d) = %d, %v; want %d", i, n, err, rows(i))
				return
			}
		}
	}()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var want int64
	for i := range batches {
		want += int64(rows(i))
	}
	if n, exact := f.Rows(); n != want || !exact {
		t.Errorf("Rows = %d, %v; want %d, exact", n, exact, want)
	}
	// Batch 0's header was read by OpenReader; each other is one read (or
	// none, where the cached end of the file holds it).
	if reads := r.reads.Load() - opened; reads > batches-1 {
		t.Errorf("%d reads for %d headers: some header was read twice", reads, batches-1)
	}
}

// yielding lets other goroutines run in the middle of each read, as a
// read over the network does: concurrent readers of one header overlap.
type yielding struct{ r io.ReaderAt }

func (y yielding) ReadAt(p []byte, off int64) (int, error) {
	for range 20 {
		runtime.Gosched()
	}
	return y.r.ReadAt(p, off)
}

// TestBatchRowCountInOrder: a scan that asks for each batch's row count in
// file order, before the file is indexed, gets exact counts, and the rows
// of the batches asked about are numbered exactly (their ids are their
// global row numbers) although the later batches' counts are estimates
// that differ from the truth.
func TestBatchRowCountInOrder(t *testing.T) {
	const batches = 40
	rows := func(i int) int { return 3 + (i*37)%50 } // uneven: estimates are wrong
	data := unevenFile(t, batches, rows)
	f, err := OpenReader("x.arrow", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	var start int64
	for i := range batches {
		n, err := f.BatchRowCount(i)
		if err != nil || n != int64(rows(i)) {
			t.Fatalf("BatchRowCount(%d) = %d, %v; want %d", i, n, err, rows(i))
		}
		for _, row := range []int64{start, start + n - 1} {
			if got := valueText(f, row, 0); got != fmt.Sprint(row) {
				t.Fatalf("after batch %d's count: row %d holds id %s", i, row, got)
			}
		}
		if i == batches/2 && f.Indexed() {
			t.Fatal("indexed before every count was read")
		}
		start += n
	}
	if n, exact := f.Rows(); n != start || !exact {
		t.Errorf("Rows = %d, %v; want %d, exact", n, exact, start)
	}
	if _, err := f.BatchRowCount(batches); err == nil || !strings.Contains(err.Error(), "no record batch 40") {
		t.Errorf("BatchRowCount past the end: %v", err)
	}
}

// TestIndexBrokenHeaders: with the headers of batches 3 and 7 broken,
// Index (reading headers several at a time) reports batch 3, the first in
// file order, BatchRowCount reports each broken batch and counts the
// others, and the rows of batches 0–2 read.
func TestIndexBrokenHeaders(t *testing.T) {
	data := scanFile(t, scanKind{dicts: "same"}, 10, 20)
	bad := patchBuffer(t, data, 3, 1, 1<<20)
	for k, b := range patchBuffer(t, data, 7, 1, 1<<20) { // both patches, in place
		if b != data[k] {
			bad[k] = b
		}
	}
	f, err := OpenReader("bad", bytes.NewReader(bad), int64(len(bad)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	err = f.Index(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "cannot read record batch 3 ") {
		t.Fatalf("Index: %v, want batch 3's error", err)
	}
	for i := range 10 {
		n, err := f.BatchRowCount(i)
		switch broken := i == 3 || i == 7; {
		case broken && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("record batch %d", i))):
			t.Errorf("BatchRowCount(%d) of a broken header: %d, %v", i, n, err)
		case !broken && (err != nil || n != 20):
			t.Errorf("BatchRowCount(%d) = %d, %v; want 20", i, n, err)
		}
	}
	checkColumnsRead(t, f, 2, []int{0, 1}, arrowBatches(t, data, false)[2])
}

// TestColumnsBytes: before the index, ColumnsBytes reads one header and
// estimates the rest by their bytes (not exact, within a tenth for batches
// alike); once indexed it is the exact sum of ColumnBytes.
func TestColumnsBytes(t *testing.T) {
	data := unevenFile(t, 30, func(int) int { return 100 })
	r := &countingReader{data: data}
	f, err := OpenReader("x.arrow", r, int64(len(data)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	before := r.reads.Load()
	est, exact, err := f.ColumnsBytes([]int{1})
	if err != nil || exact {
		t.Fatalf("ColumnsBytes before the index: %d, exact %v, %v", est, exact, err)
	}
	if reads := r.reads.Load() - before; reads > 1 {
		t.Errorf("ColumnsBytes before the index made %d reads, want at most 1", reads)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	var want int64
	for i := range 30 {
		n, err := f.ColumnBytes(i, []int{1})
		if err != nil {
			t.Fatal(err)
		}
		want += n
	}
	got, exact, err := f.ColumnsBytes([]int{1})
	if err != nil || !exact || got != want {
		t.Errorf("ColumnsBytes indexed = %d, exact %v, %v; want %d, exact", got, exact, err, want)
	}
	if est < want*9/10 || est > want*11/10 {
		t.Errorf("estimate %d, want within a tenth of %d", est, want)
	}
	if _, _, err := f.ColumnsBytes([]int{5}); err == nil {
		t.Error("ColumnsBytes of a column not in the file: no error")
	}
}
