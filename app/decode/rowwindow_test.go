package decode

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// sortedFile writes record batches of rowsPer rows each, like the query
// benchmark's: id int64 (the global row), score float32, label a
// dictionary<int32, utf8> of dictLen words, caption utf8 of 10–70 bytes
// (null every 13th row), meta a struct (null every 17th row) of tag
// (dictionary<int16, utf8>) and vals (list<int16>, 0–5 values), and emb a
// 2×2 float32 fixed_shape_tensor (null every 11th row). In a stream (stream), the label dictionary
// changes with every batch (replacement dictionaries); an IPC file has one.
// opts are the writer's (compression).
func sortedFile(t testing.TB, stream bool, batches, rowsPer, dictLen int, opts ...ipc.Option) []byte {
	mem := memory.DefaultAllocator
	emb, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	labelType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	tagType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	metaType := arrow.StructOf(
		arrow.Field{Name: "tag", Type: tagType, Nullable: true},
		arrow.Field{Name: "vals", Type: arrow.ListOf(arrow.PrimitiveTypes.Int16), Nullable: true},
	)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: labelType},
		{Name: "caption", Type: arrow.BinaryTypes.String, Nullable: true},
		// meta before emb: arrow-go v18.8.0 writes this schema's footer
		// with a DictionaryEncoding table longer than the size its
		// (shared) vtable gives when emb comes first, which
		// internal/flatbuf refuses.
		{Name: "meta", Type: metaType, Nullable: true},
		{Name: "emb", Type: emb, Nullable: true},
	}, nil)
	var buf bytes.Buffer
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	opts = append(opts, ipc.WithSchema(schema))
	if stream {
		w = ipc.NewWriter(&buf, opts...)
	} else {
		fw, err := ipc.NewFileWriter(&buf, opts...)
		if err != nil {
			t.Fatal(err)
		}
		w = fw
	}
	words := func(b int) arrow.Array {
		sb := array.NewStringBuilder(mem)
		for k := range dictLen {
			word := fmt.Sprintf("word%d", k)
			if stream {
				word = fmt.Sprintf("b%d-%s", b, word)
			}
			sb.Append(word)
		}
		return sb.NewArray()
	}
	tsb := array.NewStringBuilder(mem)
	tsb.AppendValues([]string{"red", "green", "blue"}, nil)
	tags := tsb.NewArray()
	dict := words(0)
	for b := range batches {
		if stream {
			dict = words(b)
		}
		ids, scores := array.NewInt64Builder(mem), array.NewFloat32Builder(mem)
		labels, captions := array.NewInt32Builder(mem), array.NewStringBuilder(mem)
		embs := tensorext.NewFixedShapeTensorBuilder(mem, emb)
		tagIdx, vals := array.NewInt16Builder(mem), array.NewListBuilder(mem, arrow.PrimitiveTypes.Int16)
		vb := vals.ValueBuilder().(*array.Int16Builder)
		var valid []bool
		for r := range rowsPer {
			id := int64(b*rowsPer + r)
			ids.Append(id)
			scores.Append(float32((id*7919)%100003) / 100003)
			labels.Append(int32((id * 31) % int64(dictLen)))
			if id%13 == 0 {
				captions.AppendNull()
			} else {
				captions.Append(fmt.Sprintf("caption %d %s", id, strings.Repeat("x", int(id*17%61))))
			}
			if id%11 == 0 {
				embs.Append(false) // arrow-go appends the null row's values
			} else if err := embs.AppendTensor([]float32{float32(id), float32(id) + 0.25, float32(id) + 0.5, float32(id) + 0.75}); err != nil {
				t.Fatal(err)
			}
			tagIdx.Append(int16(id % 3))
			vals.Append(true)
			for k := range id % 6 {
				vb.Append(int16(id + k))
			}
			valid = append(valid, id%17 != 0)
		}
		tag := array.NewDictionaryArray(tagType, tagIdx.NewArray(), tags)
		meta, err := array.NewStructArrayWithFields([]arrow.Array{tag, vals.NewArray()}, metaType.Fields())
		if err != nil {
			t.Fatal(err)
		}
		// Nulls in the struct: rebuild it with a validity bitmap.
		bm := memory.NewResizableBuffer(mem)
		bm.Resize((rowsPer + 7) / 8)
		for r, ok := range valid {
			if ok {
				bm.Bytes()[r/8] |= 1 << (r % 8)
			}
		}
		md := array.NewData(metaType, rowsPer, []*memory.Buffer{bm}, []arrow.ArrayData{meta.Field(0).Data(), meta.Field(1).Data()}, array.UnknownNullCount, 0)
		cols := []arrow.Array{ids.NewArray(), scores.NewArray(), array.NewDictionaryArray(labelType, labels.NewArray(), dict),
			captions.NewArray(), array.MakeFromData(md), embs.NewFixedShapeTensorArray()}
		if err := w.Write(array.NewRecordBatch(schema, cols, int64(rowsPer))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkRowsEqual checks that row of f reads, in every column, as arrow-go
// reads it (ref, batches of rowsPer rows).
func checkRowsEqual(t *testing.T, f *File, ref []arrow.RecordBatch, rowsPer int, row int64) {
	t.Helper()
	if err := rowDiff(f, ref, rowsPer, row); err != nil {
		t.Fatal(err)
	}
}

// rowDiff says how row of f reads otherwise than arrow-go reads it.
func rowDiff(f *File, ref []arrow.RecordBatch, rowsPer int, row int64) error {
	d, local, err := f.rowData(context.Background(), row)
	if err != nil {
		return fmt.Errorf("row %d: %v", row, err)
	}
	want, r := ref[row/int64(rowsPer)], row%int64(rowsPer)
	for k := range want.NumCols() {
		if d.colErr[k] != "" {
			return fmt.Errorf("row %d, column %d: %s", row, k, d.colErr[k])
		}
		got := d.rec.Column(int(k))
		if !array.SliceEqual(got, int64(local), int64(local)+1, want.Column(int(k)), r, r+1) {
			g, w := array.NewSlice(got, int64(local), int64(local)+1), array.NewSlice(want.Column(int(k)), r, r+1)
			return fmt.Errorf("row %d, column %q: %v, arrow-go reads %v", row, want.ColumnName(int(k)), g, w)
		}
	}
	return nil
}

// scattered returns n rows of rows spread as a sorted result's first
// screen is: in no order, most in batches of their own.
func scattered(rows int64, n int) []int64 {
	out := make([]int64, n)
	for k := range out {
		out[k] = (int64(k)*7_368_787 + 12_345) % rows
	}
	return out
}

// TestRowWindowOption: with Options.RowWindow, rows scattered over small
// record batches (read whole without it) are read by windows of about
// RowWindow bytes, each row reading as arrow-go reads it; the bytes read
// are those of the windows (plus each batch's header, the dictionaries
// once), far fewer than the batches'. Without the option, and for
// compressed bodies, the batches are read whole as before.
func TestRowWindowOption(t *testing.T) {
	const batches, rowsPer = 6, 8192
	for _, tc := range []struct {
		name      string
		stream    bool
		rowWindow int64
		opts      []ipc.Option
		windows   bool // rows are read by windows
	}{
		{"file", false, RemoteRowWindow, nil, true},
		{"stream, a dictionary per batch", true, RemoteRowWindow, nil, true},
		{"file, 4 KiB windows", false, 4 << 10, nil, true},
		{"file, 64 KiB windows", false, 64 << 10, nil, true},
		{"file, off", false, 0, nil, false},
		{"stream, off", true, 0, nil, false},
		{"file, LZ4", false, RemoteRowWindow, []ipc.Option{ipc.WithLZ4()}, false},
		{"stream, ZSTD", true, RemoteRowWindow, []ipc.Option{ipc.WithZstd()}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := sortedFile(t, tc.stream, batches, rowsPer, 20, tc.opts...)
			ref := arrowBatches(t, data, tc.stream)
			l := &readLog{data: data}
			f, err := OpenReader("sorted.arrow", l, int64(len(data)), Options{RowWindow: tc.rowWindow})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Index(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			rows := scattered(batches*rowsPer, 30)
			from := len(l.since(0))
			windows := map[cacheKey]bool{}
			touched := map[int]bool{}
			for _, row := range rows {
				checkRowsEqual(t, f, ref, rowsPer, row)
				batch, win, ok := f.Window(row)
				if !ok {
					t.Fatalf("row %d not located", row)
				}
				if got := win >= 0; got != tc.windows {
					t.Fatalf("row %d: window %d; want windows %v", row, win, tc.windows)
				}
				windows[cacheKey{batch, win, 0}] = true
				touched[batch] = true
			}
			var read, largest int64
			for _, sp := range l.since(from) {
				read += sp.n
				largest = max(largest, sp.n)
			}
			var whole int64
			for i := range touched {
				b, _, _ := f.index.batchAt(i)
				whole += b.length
			}
			if !tc.windows {
				// Read whole: each touched batch, once (a compressed
				// stream's windows are tried first: their headers).
				// (The file's first and last endsChunk bytes are held
				// from the open on.)
				if read < whole-2*endsChunk || read > whole+int64(len(touched))*4<<10 {
					t.Errorf("read %d bytes for %d batches read whole (%d bytes)", read, len(touched), whole)
				}
				if n := f.windowReads.Load(); n != 0 {
					t.Errorf("%d row windows read, want none", n)
				}
				return
			}
			// Each window: its rows' share of the batch (the values of
			// strings and lists guessed with a quarter more, bitmaps read
			// with what lies within exactGap), and once per batch its
			// header, and once the dictionaries.
			b, _, _ := f.index.batchAt(0)
			w, small := f.windowRows(b)
			if !small || w%8 != 0 || w*b.length/b.rows > 2*tc.rowWindow {
				t.Fatalf("windows of %d rows (small %v) for RowWindow %d and %d bytes a row", w, small, tc.rowWindow, b.length/b.rows)
			}
			bound := int64(len(windows))*(w*b.length/b.rows*3/2+2*exactGap) + int64(len(touched))*(b.metaLen+1<<10) + 4<<10
			if read > bound || (w*b.length/b.rows <= 16<<10 && read > whole/4) {
				t.Errorf("read %d bytes for %d windows in %d batches (%d rows each): want at most %d (the batches: %d)",
					read, len(windows), len(touched), w, bound, whole)
			}
			if tc.rowWindow == RemoteRowWindow && largest > 16<<10 {
				t.Errorf("a read of %d bytes: a remote file's reads of at most 16 KiB are fetched as they are", largest)
			}
			if n := f.windowReads.Load(); n != int64(len(windows)) {
				t.Errorf("%d row windows read for %d windows", n, len(windows))
			}
			// Reading them again reads nothing.
			again := len(l.since(0))
			for _, row := range rows {
				checkRowsEqual(t, f, ref, rowsPer, row)
			}
			if n := len(l.since(0)) - again; n != 0 {
				t.Errorf("%d reads for rows cached", n)
			}
		})
	}
}

// TestRowWindowWholeReplaces: once a record batch read by windows is read
// whole (Batch), its rows are served from it: Loaded, no read, the same
// values.
func TestRowWindowWholeReplaces(t *testing.T) {
	const rowsPer = 8192
	data := sortedFile(t, false, 3, rowsPer, 20)
	ref := arrowBatches(t, data, false)
	r := &countingReader{data: data}
	f, err := OpenReader("sorted.arrow", r, int64(len(data)), Options{RowWindow: RemoteRowWindow})
	if err != nil {
		t.Fatal(err)
	}
	row := int64(rowsPer + 5000)
	checkRowsEqual(t, f, ref, rowsPer, row)
	if _, win, _ := f.Window(row); win < 0 {
		t.Fatalf("row %d: window %d, want a window", row, win)
	}
	other := int64(rowsPer + 100) // another window of batch 1, never read
	if s := f.WindowState(other); s != Unread {
		t.Fatalf("row %d: %s before the batch is read", other, s)
	}
	if _, err := f.Batch(1); err != nil {
		t.Fatal(err)
	}
	if s := f.WindowState(other); s != Loaded {
		t.Errorf("row %d: %s after its batch was read whole, want loaded", other, s)
	}
	reads := r.reads.Load()
	for _, row := range []int64{other, row, 2*rowsPer - 1} {
		checkRowsEqual(t, f, ref, rowsPer, row)
	}
	if n := r.reads.Load() - reads; n != 0 {
		t.Errorf("%d reads for rows of a batch read whole", n)
	}
}

// TestRowWindowBudget reads every 7th row of a file by small windows
// under a budget of a few windows: the cache stays within it (the
// dictionaries shared by the windows counted once, outside it), and rows
// evicted read again right.
func TestRowWindowBudget(t *testing.T) {
	const batches, rowsPer = 8, 1024 // ~90 KB a batch, under a quarter of the budget
	data := sortedFile(t, false, batches, rowsPer, 20)
	ref := arrowBatches(t, data, false)
	const budget = 512 << 10
	f, err := OpenReader("sorted.arrow", bytes.NewReader(data), int64(len(data)), Options{Budget: budget, RowWindow: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	for row := int64(0); row < batches*rowsPer; row += 7 {
		checkRowsEqual(t, f, ref, rowsPer, row)
		if used, b := f.CacheBytes(); used > b || b != budget {
			t.Fatalf("cache %d bytes over budget %d", used, b)
		}
	}
	b, _, _ := f.index.batchAt(0)
	w, small := f.windowRows(b)
	if n, want := f.windowReads.Load(), batches*((rowsPer+w-1)/w); !small || n != want {
		t.Errorf("%d row windows read (of %d rows, small %v), want %d", n, w, small, want)
	}
	// The first window was evicted: it reads again, right.
	if s := f.WindowState(0); s != Unread {
		t.Errorf("row 0: %s, want evicted", s)
	}
	checkRowsEqual(t, f, ref, rowsPer, 0)
}

// TestRowWindowBigDictionary: a batch whose dictionaries are larger than
// windowDictMax is read whole, with the option too.
func TestRowWindowBigDictionary(t *testing.T) {
	const rowsPer = 8192
	data := sortedFile(t, false, 3, rowsPer, 120_000) // ~1.3 MB of words
	ref := arrowBatches(t, data, false)
	f, err := OpenReader("sorted.arrow", bytes.NewReader(data), int64(len(data)), Options{RowWindow: RemoteRowWindow})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range scattered(3*rowsPer, 10) {
		checkRowsEqual(t, f, ref, rowsPer, row)
		if _, win, _ := f.Window(row); win >= 0 {
			t.Fatalf("row %d: window %d, want its batch read whole", row, win)
		}
	}
	if n := f.windowReads.Load(); n != 0 {
		t.Errorf("%d row windows read", n)
	}
}

// TestRowWindowConcurrent: goroutines reading overlapping scattered rows by
// small windows (the dictionaries read once, shared) all read arrow-go's
// values (run with -race).
func TestRowWindowConcurrent(t *testing.T) {
	const batches, rowsPer = 4, 8192
	for _, stream := range []bool{false, true} {
		data := sortedFile(t, stream, batches, rowsPer, 20)
		ref := arrowBatches(t, data, stream)
		f, err := OpenReader("sorted.arrow", io.NewSectionReader(bytes.NewReader(data), 0, int64(len(data))), int64(len(data)), Options{RowWindow: RemoteRowWindow})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Go(func() {
				for k, row := range scattered(batches*rowsPer, 40) {
					if k%2 == g%2 {
						if err := rowDiff(f, ref, rowsPer, row); err != nil {
							t.Error(err)
						}
					}
				}
			})
		}
		wg.Wait()
	}
}
