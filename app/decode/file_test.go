package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// countingReader is an in-memory io.ReaderAt that counts what is read.
type countingReader struct {
	data  []byte
	bytes atomic.Int64
	reads atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads.Add(1)
	r := bytes.NewReader(c.data)
	n, err := r.ReadAt(p, off)
	c.bytes.Add(int64(n))
	return n, err
}

// multiBatch writes batches record batches of rowsPer rows: an int64 "id"
// (the global row), a dictionary-encoded "label" and a 4×4 float32 tensor
// "t" whose elements are id*100 + k.
func multiBatch(t testing.TB, stream bool, batches, rowsPer int) []byte {
	mem := memory.DefaultAllocator
	typ, _ := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4, 4}, nil, []string{"H", "W"})
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "label", Type: dictType},
		{Name: "t", Type: typ, Nullable: true},
	}, nil)
	var buf bytes.Buffer
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(&buf, ipc.WithSchema(schema))
	} else {
		fw, err := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	}
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"cat", "dog", "owl"}, nil)
	dict := sb.NewArray() // one dictionary for every batch: the file format allows no replacement
	for b := 0; b < batches; b++ {
		ids := array.NewInt64Builder(mem)
		labels := array.NewInt8Builder(mem)
		tb := tensorext.NewFixedShapeTensorBuilder(mem, typ)
		for r := 0; r < rowsPer; r++ {
			id := int64(b*rowsPer + r)
			ids.Append(id)
			labels.Append(int8(id % 3))
			vals := make([]float32, 16)
			for k := range vals {
				vals[k] = float32(id*100) + float32(k)
			}
			_ = tb.AppendTensor(vals)
		}
		cols := []arrow.Array{ids.NewArray(), array.NewDictionaryArray(dictType, labels.NewArray(), dict), tb.NewArray()}
		rec := array.NewRecordBatch(schema, cols, int64(rowsPer))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkRow(t *testing.T, f *File, row int64) {
	t.Helper()
	if got := valueText(f, row, 0); got != fmt.Sprint(row) {
		t.Fatalf("row %d: id %q", row, got)
	}
	if got, want := valueText(f, row, 1), []string{"cat", "dog", "owl"}[row%3]; got != want {
		t.Fatalf("row %d: label %q, want %q", row, got, want)
	}
	tt, err := f.Tensor(row, 2)
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := tt.Pos(3, 3)
	if v, _ := tt.Float64(pos); v != float64(row*100+15) {
		t.Fatalf("row %d: t[3][3] = %v", row, v)
	}
}

// TestLazyOpenReadsLittle opens a 100-batch file and checks that opening
// reads a small part of it, that the last row costs one batch, and that the
// row count is exact after Index.
func TestLazyOpenReadsLittle(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "stream"}[stream], func(t *testing.T) {
			r := &countingReader{data: multiBatch(t, stream, 100, 50)}
			size := int64(len(r.data))
			f, err := OpenReader("many.arrow", r, size, Options{SmallFile: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			opened := r.bytes.Load()
			if opened > 2*endsChunk+4096 || r.reads.Load() > 4 {
				t.Errorf("opening read %d of %d bytes", opened, size)
			}
			rows, exact := f.Rows()
			t.Logf("after open: %d of %d bytes read in %d reads; rows %d exact %v", opened, size, r.reads.Load(), rows, exact)
			// A file's unread batches are estimated from their byte size (exact
			// for equal batches); a stream's unscanned tail from its bytes.
			if (!stream && rows != 5000) || rows < 4750 || rows > 5250 {
				t.Errorf("estimated rows %d, want 5000", rows)
			}
			var last int64
			err = f.Index(context.Background(), func(done, total int64) {
				if done < last || total != size {
					t.Errorf("progress %d/%d after %d", done, total, last)
				}
				last = done
			})
			if err != nil {
				t.Fatal(err)
			}
			if rows, exact := f.Rows(); rows != 5000 || !exact || f.NumBatches() != 100 {
				t.Fatalf("after Index: rows %d exact %v batches %d", rows, exact, f.NumBatches())
			}
			before := r.bytes.Load()
			checkRow(t, f, 4999)
			one := r.bytes.Load() - before
			if one > 2*size/100+4096 {
				t.Errorf("reading the last row read %d bytes, more than its batch (~%d)", one, size/100)
			}
			checkRow(t, f, 0)
			checkRow(t, f, 2525)
		})
	}
}

// TestLazyCacheBudget reads every row of a file under a budget of about
// three batches: the cache never holds more than its budget, evicts the
// least recently used batch, and rows stay correct.
func TestLazyCacheBudget(t *testing.T) {
	r := &countingReader{data: multiBatch(t, false, 20, 100)}
	probe, err := OpenReader("x", r, int64(len(r.data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := probe.Batch(0); err != nil {
		t.Fatal(err)
	}
	one, _ := probe.CacheBytes()
	budget := 3*one + one/2
	f, err := OpenReader("x", r, int64(len(r.data)), Options{Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	for row := int64(0); row < 2000; row += 7 {
		checkRow(t, f, row)
		if used, b := f.CacheBytes(); used > b || b != budget {
			t.Fatalf("cache %d bytes over budget %d", used, b)
		}
	}
	if used, _ := f.CacheBytes(); used != 3*one {
		t.Errorf("cache holds %d bytes, want 3 batches (%d)", used, 3*one)
	}
	// Batch 19 is cached; batch 0 was evicted and is read again.
	reads := r.reads.Load()
	checkRow(t, f, 1999)
	if r.reads.Load() != reads {
		t.Error("a cached batch was read again")
	}
	if last, middle := f.WindowState(1950), f.WindowState(1000); last != Loaded || middle != Unread {
		t.Errorf("last batch %s (want loaded), middle %s (want unread)", last, middle)
	}
	checkRow(t, f, 1000)
	if r.reads.Load() == reads {
		t.Error("an evicted batch was not read again")
	}
}

// TestLazyBatchLargerThanBudget: a batch that cannot be read by windows and
// needs more memory than the budget is refused with an error that says so
// (wrapping ErrTooLarge) and how to raise the budget; the file stays usable.
func TestLazyBatchLargerThanBudget(t *testing.T) {
	data := multiBatch(t, true, 2, 1000)
	f, err := OpenReader("big.arrows", bytes.NewReader(data), int64(len(data)), Options{Budget: 1024})
	if err != nil {
		t.Fatal(err)
	}
	err = f.Load(1500)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "record batch 1 needs more memory than the cache budget (1.0 KiB)") ||
		!strings.Contains(err.Error(), "?cache=") {
		t.Fatalf("Load: %v, want a refusal naming the batch, the budget and ?cache=", err)
	}
	if _, err := f.Value(10, 0); err == nil || !strings.Contains(err.Error(), "cache budget") {
		t.Errorf("Value: %v, want the refusal", err)
	}
	if used, _ := f.CacheBytes(); used != 0 {
		t.Errorf("cache %d bytes after refusals", used)
	}
	// The same file with a budget that holds a batch reads every row.
	f, err = OpenReader("big.arrows", bytes.NewReader(data), int64(len(data)), Options{Budget: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	checkRow(t, f, 1500)
	checkRow(t, f, 10)
}

// TestLazyTruncatedStream opens a stream cut in its third batch: the first
// batches show and a warning says where it broke.
func TestLazyTruncatedStream(t *testing.T) {
	full := multiBatch(t, true, 5, 10)
	cut := full[:len(full)*5/10]
	f, err := OpenReader("cut.arrows", bytes.NewReader(cut), int64(len(cut)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	rows, exact := f.Rows()
	if !exact || rows < 10 || rows >= 50 || len(f.Warnings()) != 1 {
		t.Fatalf("rows %d exact %v warnings %q", rows, exact, f.Warnings())
	}
	checkRow(t, f, rows-1)
}

func BenchmarkOpenLazy(b *testing.B) {
	data := multiBatch(b, false, 1000, 10)
	b.ReportAllocs()
	for b.Loop() {
		f, err := OpenReader("x", bytes.NewReader(data), int64(len(data)), Options{})
		if err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// BenchmarkBatchDecode decodes one record batch per iteration: the cache
// holds one and a half of the four batches it cycles through, so every
// Batch call reads and decodes again (a budget below one batch refuses it).
func BenchmarkBatchDecode(b *testing.B) {
	data := multiBatch(b, true, 4, 2048)
	f, err := OpenReader("x", bytes.NewReader(data), int64(len(data)), Options{Budget: int64(len(data)) / 4 * 3 / 2})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data) / 4))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := f.Batch(i % 4); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRowWindow reads the values of 12 visible rows, as the table
// does on every scroll step (package summary then summarises them).
func BenchmarkRowWindow(b *testing.B) {
	data := multiBatch(b, false, 4, 2048)
	f, err := OpenReader("x", bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	row := int64(0)
	columns := len(f.Fields()) // as the table takes them, once a frame
	for b.Loop() {
		for k := int64(0); k < 12; k++ {
			for c := range columns {
				_, _ = f.Value((row+k)%8192, c)
			}
		}
		row += 97
	}
}

// oneBigBatch writes a single record batch of rows rows with columns of
// every layout row windows read: int64, utf8, bool, nullable float32, a
// list<int32>, a fixed shape tensor with null rows and a variable shape
// tensor.
func oneBigBatch(t testing.TB, stream bool, rows int) []byte {
	mem := memory.DefaultAllocator
	ftyp, _ := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4, 4}, []int{1, 0}, []string{"H", "W"})
	vtyp, _ := tensorext.NewVariableShapeTensorType(arrow.PrimitiveTypes.Uint8, 2, nil, []string{"H", "W"}, nil)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "t", Type: ftyp, Nullable: true},
		{Name: "v", Type: vtyp, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	ft := tensorext.NewFixedShapeTensorBuilder(mem, ftyp)
	vt := tensorext.NewVariableShapeTensorBuilder(mem, vtyp)
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("row %d %s", i, string(make([]byte, i%13))))
		b.Field(2).(*array.BooleanBuilder).Append(i%3 == 0)
		if i%5 == 0 {
			b.Field(3).AppendNull()
		} else {
			b.Field(3).(*array.Float32Builder).Append(float32(i) / 4)
		}
		lb := b.Field(4).(*array.ListBuilder)
		if i%7 == 0 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			for k := 0; k < i%4; k++ {
				lb.ValueBuilder().(*array.Int32Builder).Append(int32(i*10 + k))
			}
		}
		if i%11 == 0 {
			ft.AppendNull()
		} else {
			vals := make([]float32, 16)
			for k := range vals {
				vals[k] = float32(i*16 + k)
			}
			_ = ft.AppendTensor(vals)
		}
		h, w := 1+i%3, 2+i%2
		pix := make([]uint8, h*w)
		for k := range pix {
			pix[k] = uint8(i + k)
		}
		_ = vt.AppendTensor([]int{h, w}, pix)
	}
	cols := make([]arrow.Array, 0, 7)
	for k := 0; k < 5; k++ {
		cols = append(cols, b.Field(k).NewArray())
	}
	cols = append(cols, ft.NewArray(), vt.NewArray())
	rec := array.NewRecordBatch(schema, cols, int64(rows))
	var buf bytes.Buffer
	if stream {
		w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Close()
	} else {
		w, _ := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		w.Close()
	}
	return buf.Bytes()
}

// TestLazyRowWindows reads a single record batch far larger than the cache
// budget by row windows and checks every cell of sampled rows against the
// same file read whole; one window reads a small part of the file.
func TestLazyRowWindows(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "stream"}[stream], func(t *testing.T) {
			data := oneBigBatch(t, stream, 5000)
			whole, err := OpenReader("whole", bytes.NewReader(data), int64(len(data)), Options{Budget: 1 << 30})
			if err != nil {
				t.Fatal(err)
			}
			r := &countingReader{data: data}
			f, err := OpenReader("windows", r, int64(len(data)), Options{Budget: 64 << 10})
			if err != nil {
				t.Fatal(err)
			}
			before, reads := r.bytes.Load(), r.reads.Load()
			if err := f.Load(4321); err != nil {
				t.Fatal(err)
			}
			// A tenth of the file, and what each read reads ahead for
			// the next windows (a sixteenth of the budget).
			ahead := (r.reads.Load() - reads) * (64 << 10) / 16
			if got := r.bytes.Load() - before; got > int64(len(data))/10+ahead {
				t.Errorf("one window read %d of %d bytes", got, len(data))
			}
			for _, row := range []int64{0, 1, 7, 8, 9, 63, 64, 1000, 2047, 2048, 4321, 4999} {
				for c := range f.Fields() {
					if got, want := describeValue(f, row, c), describeValue(whole, row, c); got != want {
						t.Fatalf("row %d %s: %s, want %s", row, f.Fields()[c].Name, got, want)
					}
				}
			}
			if f.windowReads.Load() == 0 {
				t.Error("no row window was read")
			}
			if used, budget := f.CacheBytes(); used > budget {
				t.Errorf("cache %d over budget %d", used, budget)
			}
			if len(f.Warnings()) != 0 {
				t.Errorf("warnings %q", f.Warnings())
			}
		})
	}
}

// TestLazyIndexCancelled: a cancelled Index leaves every scanned batch in
// place, so rows read right.
func TestLazyIndexCancelled(t *testing.T) {
	data := multiBatch(t, true, 300, 1)
	f, err := OpenReader("s.arrows", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_ = f.Index(ctx, func(done, total int64) {
		if calls++; calls == 3 {
			cancel()
		}
	})
	if f.Indexed() {
		t.Fatal("index finished despite the cancel")
	}
	n := f.NumBatches()
	if n < 10 || n >= 300 {
		t.Fatalf("%d batches scanned", n)
	}
	for row := int64(0); row < int64(n); row++ {
		checkRow(t, f, row)
	}
}

// TestRowWindowsReadAhead: scrolling through a large batch reads window
// after window; the small columns' read-ahead of the first window serves
// the next ones, so each further window is one read, of its tensors'
// bytes exactly.
func TestRowWindowsReadAhead(t *testing.T) {
	const rows, elems = 1000, 4096 // 4 KiB tensors: 4 MB in one batch
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "label", Type: arrow.BinaryTypes.String},
		{Name: "t", Type: arrow.FixedSizeListOf(elems, arrow.PrimitiveTypes.Uint8)},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	vals := b.Field(2).(*array.FixedSizeListBuilder).ValueBuilder().(*array.Uint8Builder)
	for i := 0; i < rows; i++ {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("label %d", i))
		b.Field(2).(*array.FixedSizeListBuilder).Append(true)
		for k := 0; k < elems; k++ {
			vals.Append(uint8(i + k))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, _ := ipc.NewFileWriter(&buf, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r := &countingReader{data: buf.Bytes()}
	// A 4 MiB budget: windows of 120 rows (480 KiB of tensors), read-ahead
	// ranges of 256 KiB.
	f, err := OpenReader("big.arrow", r, int64(buf.Len()), Options{Budget: 4 << 20})
	if err != nil {
		t.Fatal(err)
	}
	bi, _, _ := f.index.batchAt(0)
	const win = 120
	if got := bi.windowRows(f.budget); got != win {
		t.Fatalf("windows of %d rows, want %d", got, win)
	}
	if _, _, ok := f.Window(rows); ok || f.WindowState(0) != Unread || f.WindowState(win) != Unread {
		t.Fatalf("before any load: row %d located %v, windows of rows 0 and %d %s, %s; want not located, unread, unread", rows, ok, win, f.WindowState(0), f.WindowState(win))
	}
	if err := f.Load(0); err != nil {
		t.Fatal(err)
	}
	if a, b, c := f.WindowState(0), f.WindowState(win-1), f.WindowState(win); a != Loaded || b != Loaded || c != Unread {
		t.Fatalf("after the first window: rows 0, %d, %d %s, %s, %s; want loaded, loaded, unread", win-1, win, a, b, c)
	}
	for _, row := range []int64{win, 2 * win, 3 * win} {
		reads, read := r.reads.Load(), r.bytes.Load()
		if err := f.Load(row); err != nil {
			t.Fatal(err)
		}
		if n, m := r.reads.Load()-reads, r.bytes.Load()-read; n != 1 || m != win*elems {
			t.Errorf("window of row %d: %d reads of %d bytes, want 1 of %d", row, n, m, win*elems)
		}
		for _, i := range []int64{row, row + win - 1} {
			if got, want := valueText(f, i, 0), fmt.Sprint(i); got != want {
				t.Errorf("row %d id %q, want %q", i, got, want)
			}
			if got, want := valueText(f, i, 1), fmt.Sprintf("label %d", i); got != want {
				t.Errorf("row %d label %q, want %q", i, got, want)
			}
		}
	}
	if got := f.windowReads.Load(); got != 4 {
		t.Errorf("%d windows read, want 4", got)
	}
}

// TestHasPreviewsAsFields: HasPreviews answers as the copy Fields returns
// does (a tensor column or one of encoded images), for every Arrow file of
// testdata that opens, with files of both answers among them.
func TestHasPreviewsAsFields(t *testing.T) {
	seen := map[bool]int{}
	eachOpened(t, testdataArrow(t), func(path string, f *File) { // not_arrow.arrow and other broken files are left out
		want := false
		for _, fld := range f.Fields() {
			want = want || fld.Tensor != nil || fld.Images
		}
		if got := f.HasPreviews(); got != want {
			t.Errorf("%s: HasPreviews %v, Fields say %v", path, got, want)
		}
		seen[want]++
	})
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("files with previews and without: %v; want some of each", seen)
	}
}
