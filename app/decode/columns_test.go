package decode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/tensorview/tensorview/internal/flatbuf"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// scanKind says how scanFile writes its file: the stream format or the
// file format, compressed or not, and how its dictionaries change from
// batch to batch in a stream (in the file format they cannot).
type scanKind struct {
	name   string
	stream bool
	codec  []ipc.Option // ipc.WithLZ4(), ipc.WithZstd()
	dicts  string       // "same"; streams also "deltas" (each batch's dictionary extends the last) or "replaced"
}

func scanKinds() []scanKind {
	return []scanKind{
		{name: "file", dicts: "same"},
		{name: "file lz4", codec: []ipc.Option{ipc.WithLZ4()}, dicts: "same"},
		{name: "file zstd", codec: []ipc.Option{ipc.WithZstd()}, dicts: "same"},
		{name: "stream deltas", stream: true, dicts: "deltas"},
		{name: "stream replaced", stream: true, dicts: "replaced"},
		{name: "stream zstd deltas", stream: true, codec: []ipc.Option{ipc.WithZstd()}, dicts: "deltas"},
	}
}

// writer is arrow-go's IPC writer of the kind's format into buf, with
// opts and the kind's codec.
func (k scanKind) writer(t testing.TB, buf *bytes.Buffer, opts ...ipc.Option) interface {
	Write(arrow.RecordBatch) error
	Close() error
} {
	opts = append(opts, k.codec...)
	if k.stream {
		return ipc.NewWriter(buf, opts...)
	}
	w, err := ipc.NewFileWriter(buf, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// scanFile writes batches record batches of rows rows, a column of each
// layout a scan reads: id int64 (the global row); name utf8 (every 5th
// null); seq list<int32> (row%4 elements, every 7th null); t a [2,3]
// float32 fixed_shape_tensor; label dictionary<int16, utf8>; st
// struct<a int32, b utf8> (every 6th null); score float64 (every 3rd
// null); flag bool. The schema has metadata, and id field metadata.
func scanFile(t testing.TB, k scanKind, batches, rows int) []byte {
	t.Helper()
	mem := memory.DefaultAllocator
	tt, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, []string{"H", "W"})
	if err != nil {
		t.Fatal(err)
	}
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: arrow.BinaryTypes.String}
	stType := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})
	md := arrow.NewMetadata([]string{"origin"}, []string{"scanFile"})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Metadata: arrow.NewMetadata([]string{"unit"}, []string{"row"})},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "seq", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "t", Type: tt, Nullable: true},
		{Name: "label", Type: dictType, Nullable: true},
		{Name: "st", Type: stType, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
	}, &md)
	var buf bytes.Buffer
	w := k.writer(t, &buf, ipc.WithSchema(schema), ipc.WithDictionaryDeltas(k.dicts == "deltas"))
	words := []string{"cat", "dog", "owl", "eel", "yak", "emu", "gnu", "elk", "ant", "bee", "fox", "hen"}
	for b := range batches {
		dict := words[:4]
		switch k.dicts {
		case "deltas":
			dict = words[:min(len(words), 4+b)]
		case "replaced":
			dict = []string{words[b%len(words)] + "!", words[(b+1)%len(words)] + "?"}
		}
		db := array.NewStringBuilder(mem)
		db.AppendValues(dict, nil)
		ids, names := array.NewInt64Builder(mem), array.NewStringBuilder(mem)
		seq := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
		seqv := seq.ValueBuilder().(*array.Int32Builder)
		tb := tensorext.NewFixedShapeTensorBuilder(mem, tt)
		labels := array.NewInt16Builder(mem)
		st := array.NewStructBuilder(mem, stType)
		sa, sb := st.FieldBuilder(0).(*array.Int32Builder), st.FieldBuilder(1).(*array.StringBuilder)
		scores, flags := array.NewFloat64Builder(mem), array.NewBooleanBuilder(mem)
		for r := range rows {
			id := int64(b*rows + r)
			ids.Append(id)
			if id%5 == 0 {
				names.AppendNull()
			} else {
				names.Append(fmt.Sprintf("row %d", id))
			}
			if id%7 == 0 {
				seq.AppendNull()
			} else {
				seq.Append(true)
				for e := range id % 4 {
					seqv.Append(int32(id*10 + e))
				}
			}
			vals := make([]float32, 6)
			for e := range vals {
				vals[e] = float32(id) + float32(e)/8
			}
			if err := tb.AppendTensor(vals); err != nil {
				t.Fatal(err)
			}
			if id%9 == 4 {
				labels.AppendNull()
			} else {
				labels.Append(int16(id % int64(len(dict))))
			}
			if id%6 == 0 {
				st.AppendNull()
			} else {
				st.Append(true)
				sa.Append(int32(-id))
				sb.Append(strings.Repeat("x", int(id%3)))
			}
			if id%3 == 0 {
				scores.AppendNull()
			} else {
				scores.Append(float64(id) / 4)
			}
			flags.Append(id%2 == 1)
		}
		cols := []arrow.Array{ids.NewArray(), names.NewArray(), seq.NewArray(), tb.NewArray(),
			array.NewDictionaryArray(dictType, labels.NewArray(), db.NewArray()), st.NewArray(), scores.NewArray(), flags.NewArray()}
		if err := w.Write(array.NewRecordBatch(schema, cols, int64(rows))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// arrowBatches reads every record batch of data with arrow-go's own
// readers: the reference ReadColumns is compared with.
func arrowBatches(t testing.TB, data []byte, stream bool) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	if stream {
		r, err := ipc.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			out = append(out, rec)
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		return out
	}
	r, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.NumRecords() {
		rec, err := r.RecordBatchAt(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// checkColumnsRead compares ReadColumns(i, cols) with the columns cols of
// ref, record batch i read by arrow-go: values, schema and rows.
func checkColumnsRead(t *testing.T, f *File, i int, cols []int, ref arrow.RecordBatch) {
	t.Helper()
	got, err := f.ReadColumns(context.Background(), i, cols)
	if err != nil {
		t.Fatalf("ReadColumns(%d, %v): %v", i, cols, err)
	}
	if got.NumRows() != ref.NumRows() || int(got.NumCols()) != len(cols) {
		t.Fatalf("ReadColumns(%d, %v): %d rows, %d columns; want %d, %d", i, cols, got.NumRows(), got.NumCols(), ref.NumRows(), len(cols))
	}
	if md := f.Schema.Metadata(); !got.Schema().Metadata().Equal(md) {
		t.Errorf("ReadColumns(%d, %v): schema metadata %v, want %v", i, cols, got.Schema().Metadata(), md)
	}
	for j, k := range cols {
		if g, w := got.Schema().Field(j), f.Schema.Field(k); !g.Equal(w) {
			t.Errorf("ReadColumns(%d, %v): field %d is %v, want %v", i, cols, j, g, w)
		}
		if !array.Equal(got.Column(j), ref.Column(k)) {
			t.Errorf("ReadColumns(%d, %v): column %q differs from arrow-go's\ngot  %v\nwant %v", i, cols, f.Schema.Field(k).Name, got.Column(j), ref.Column(k))
		}
	}
}

// TestReadColumnsMatchesArrowGo: every column of every record batch read
// alone, some together, all and none, equal to arrow-go's reading of the
// whole batch, for the file and stream formats, compressed (LZ4, ZSTD) or
// not, with dictionaries the same in every batch, extended by deltas or
// replaced; the tensor column keeps its extension type.
func TestReadColumnsMatchesArrowGo(t *testing.T) {
	const batches, rows = 5, 203
	for _, k := range scanKinds() {
		t.Run(k.name, func(t *testing.T) {
			data := scanFile(t, k, batches, rows)
			refs := arrowBatches(t, data, k.stream)
			if len(refs) != batches {
				t.Fatalf("arrow-go reads %d record batches", len(refs))
			}
			f, err := OpenReader("scan", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Index(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if f.NumBatches() != batches {
				t.Fatalf("%d record batches", f.NumBatches())
			}
			n := f.Schema.NumFields()
			for i, ref := range refs {
				for c := range n {
					checkColumnsRead(t, f, i, []int{c}, ref)
				}
				checkColumnsRead(t, f, i, []int{1, 4, 6}, ref)
				checkColumnsRead(t, f, i, []int{0, 1, 2, 3, 4, 5, 6, 7}, ref)
				checkColumnsRead(t, f, i, nil, ref)
				if start, got, ok := f.BatchRows(i); !ok || start != int64(i*rows) || got != rows {
					t.Errorf("BatchRows(%d) = %d, %d, %v", i, start, got, ok)
				}
			}
			rec, err := f.ReadColumns(context.Background(), 2, []int{3})
			if err != nil {
				t.Fatal(err)
			}
			tv, err := rec.Column(0).(*tensorext.FixedShapeTensorArray).Tensor(5)
			if err != nil {
				t.Fatal(err)
			}
			pos, _ := tv.Pos(1, 2)
			if v, _ := tv.Float64(pos); v != float64(2*rows+5)+5.0/8 {
				t.Errorf("t[1][2] of row 5 of batch 2 = %v", v)
			}
			if used, _ := f.CacheBytes(); used != 0 {
				t.Errorf("ReadColumns left %d bytes in the cache", used)
			}
		})
	}
}

// TestReadColumnsUnindexed: ReadColumns reads a batch whose header the
// index has not read yet, and records its row count; BatchRows answers
// once the file is indexed.
func TestReadColumnsUnindexed(t *testing.T) {
	const rows = 100
	data := scanFile(t, scanKind{dicts: "same"}, 6, rows)
	refs := arrowBatches(t, data, false)
	f, err := OpenReader("scan", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1})
	if err != nil {
		t.Fatal(err)
	}
	if b, _, _ := f.index.batchAt(4); b.rows != -1 {
		t.Fatalf("batch 4 has %d rows before its header is read", b.rows)
	}
	if _, _, ok := f.BatchRows(4); ok {
		t.Error("BatchRows(4) answers before the file is indexed")
	}
	checkColumnsRead(t, f, 4, []int{0, 4}, refs[4])
	if b, _, _ := f.index.batchAt(4); b.rows != rows { // its start is estimated until the batches before it are read
		t.Errorf("after ReadColumns, batch 4 has %d rows", b.rows)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if start, n, ok := f.BatchRows(4); !ok || start != 4*rows || n != rows {
		t.Errorf("BatchRows(4) = %d, %d, %v", start, n, ok)
	}
	if _, _, ok := f.BatchRows(6); ok {
		t.Error("BatchRows(6) answers for a batch the file has not")
	}
}

// imageScanFile writes batches record batches of rows rows: id int64, a
// 32×32×3 uint8 image tensor (3 KiB a row), score float32.
func imageScanFile(t testing.TB, k scanKind, batches, rows int) []byte {
	t.Helper()
	mem := memory.DefaultAllocator
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{32, 32, 3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: typ},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	var buf bytes.Buffer
	w := k.writer(t, &buf, ipc.WithSchema(schema))
	px := make([]uint8, 32*32*3)
	for b := range batches {
		ids, scores := array.NewInt64Builder(mem), array.NewFloat32Builder(mem)
		images := tensorext.NewFixedShapeTensorBuilder(mem, typ)
		for r := range rows {
			id := b*rows + r
			ids.Append(int64(id))
			scores.Append(float32(id) / 2)
			for e := range px {
				px[e] = uint8(id*7 + e*e)
			}
			if err := images.AppendTensor(px); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Write(array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), images.NewArray(), scores.NewArray()}, int64(rows))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReadColumnsReadsOnlyThem: reading the int64 column of a file whose
// image column is 400 times larger (50 times compressed) reads the
// batches' headers and the column's buffers, each in one read, and not a
// byte more: in all at most 1.3 times the column's buffers and headers
// (the stream format's header reads, 2 KiB, run on into the body). Once
// the headers are known (kept), a batch takes one read. Two columns apart
// (id and score, the images between them) take two reads a batch, of
// their buffers. Compressed, the buffers are the compressed ones. Bytes
// in the file's ends, which opening read and keeps, are not read again.
func TestReadColumnsReadsOnlyThem(t *testing.T) {
	const batches, rows = 8, 1024
	for _, k := range []scanKind{{name: "file"}, {name: "stream", stream: true}, {name: "file zstd", codec: []ipc.Option{ipc.WithZstd()}}} {
		t.Run(k.name, func(t *testing.T) {
			data := imageScanFile(t, k, batches, rows)
			refs := arrowBatches(t, data, k.stream)
			r := &countingReader{data: data}
			f, err := OpenReader("images", r, int64(len(data)), Options{SmallFile: -1})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Index(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			read := func(cols []int) (bytes, reads int64) {
				b0, r0 := r.bytes.Load(), r.reads.Load()
				for i := range batches {
					checkColumnsRead(t, f, i, cols, refs[i])
				}
				return r.bytes.Load() - b0, r.reads.Load() - r0
			}
			// expect is what reading cols should read: each batch's header
			// (when asked) and the columns' buffers, but what the file's
			// ends hold; also the buffers' and headers' bytes in all.
			expect := func(cols []int, header bool) (exact, buffers, headers int64) {
				for i := range batches {
					b, _, _ := f.index.batchAt(i)
					at, ok := f.layouts.get(b.offset)
					if !ok {
						t.Fatalf("no header kept for batch %d", i)
					}
					n := at.metaLen
					if k.stream {
						n = min(2048, int64(len(data))-b.offset)
					}
					if headers += at.metaLen; header && !f.ends.holds(b.offset, n) {
						exact += n
					}
					pos, err := fieldRanges(at.layout, f.types())
					if err != nil {
						t.Fatal(err)
					}
					for _, c := range cols {
						for _, buf := range at.layout.buffers[pos[c].buf:pos[c+1].buf] {
							if buffers += buf.length; !f.ends.holds(b.offset+at.metaLen+buf.offset, buf.length) {
								exact += buf.length
							}
						}
					}
					if n, err := f.ColumnBytes(i, cols); err != nil || n != buffersOf(at, pos, cols) {
						t.Fatalf("ColumnBytes(%d, %v) = %d, %v; its buffers hold %d", i, cols, n, err, buffersOf(at, pos, cols))
					}
				}
				return exact, buffers, headers
			}
			got, reads := read([]int{0})
			exact, buffers, headers := expect([]int{0}, true)
			if all := int64(len(data)); buffers*20 > all {
				t.Fatalf("the id column is %d of the file's %d bytes", buffers, all)
			}
			t.Logf("id column: read %d bytes in %d reads for %d bytes of buffers and %d of headers (%.3f×)", got, reads, buffers, headers, float64(got)/float64(buffers+headers))
			if got != exact || got*10 > (buffers+headers)*13 || reads > 2*batches {
				t.Errorf("reading the id column read %d bytes in %d reads; want %d (its buffers %d, headers %d, but the file's ends) in at most %d reads", got, reads, exact, buffers, headers, 2*batches)
			}
			for _, cols := range [][]int{{0}, {0, 2}} {
				got, reads := read(cols)
				exact, buffers, _ := expect(cols, false)
				t.Logf("columns %v: read %d bytes in %d reads, their buffers hold %d", cols, got, reads, buffers)
				if got != exact || reads > int64(len(cols)*batches) {
					t.Errorf("columns %v: read %d bytes in %d reads; want %d in at most %d reads", cols, got, reads, exact, len(cols)*batches)
				}
			}
		})
	}
}

// buffersOf is the bytes of the buffers of columns cols in a batch's
// layout.
func buffersOf(at batchLayoutAt, pos []layoutPos, cols []int) (n int64) {
	for _, c := range cols {
		for _, buf := range at.layout.buffers[pos[c].buf:pos[c+1].buf] {
			n += buf.length
		}
	}
	return n
}

// TestCoalesce: buffers become runs of the body read in one read each:
// touching and overlapping ones together, small gaps joined smallest
// first while they add at most an eighth, each run placed in the new body
// with its alignment mod 8.
func TestCoalesce(t *testing.T) {
	bufs := []ipcBuffer{{0, 0}, {800, 64}, {0, 64}, {64, 100}, {168, 32}, {1000, 8}, {1010, 6}, {5000, 800}, {40, 40}}
	runs, n := coalesce(bufs)
	// The buffers hold 0..164 (three overlapping), 168..200, 800..864,
	// 1000..1008, 1010..1016 and 5000..5800: 1074 bytes, with gaps of 4,
	// 600, 136, 2 and 3984 bytes. The gaps of 2 and 4 bytes are read (6
	// bytes), that of 136 would take them past 1074/8.
	want := []run{{off: 0, n: 200, at: 0}, {off: 800, n: 64, at: 200}, {off: 1000, n: 16, at: 264}, {off: 5000, n: 800, at: 280}}
	if fmt.Sprint(runs) != fmt.Sprint(want) || n != 1080 {
		t.Errorf("coalesce = %v, %d; want %v, %d", runs, n, want, 1080)
	}
	l := relocate(batchLayout{buffers: bufs}, runs)
	wantBufs := []ipcBuffer{{0, 0}, {200, 64}, {0, 64}, {64, 100}, {168, 32}, {264, 8}, {274, 6}, {280, 800}, {40, 40}}
	if fmt.Sprint(l.buffers) != fmt.Sprint(wantBufs) {
		t.Errorf("relocated buffers %v, want %v", l.buffers, wantBufs)
	}
	// A run keeps its alignment mod 8 in the new body.
	if runs, n := coalesce([]ipcBuffer{{0, 8}, {1003, 5}}); fmt.Sprint(runs) != "[{0 8 0} {1003 5 11}]" || n != 16 {
		t.Errorf("coalesce of an unaligned buffer = %v, %d", runs, n)
	}
	if runs, n := coalesce([]ipcBuffer{{0, 0}}); runs != nil || n != 0 {
		t.Errorf("coalesce of empty buffers = %v, %d", runs, n)
	}
}

// patchBuffer returns a copy of the IPC file data whose record batch i's
// header places buffer k at offset off of the body.
func patchBuffer(t *testing.T, data []byte, i, k int, off int64) []byte {
	t.Helper()
	f, err := Open("patch", data)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := f.index.batchAt(i)
	out := bytes.Clone(data)
	plen, size, err := messagePrefix(out[b.offset:])
	if err != nil {
		t.Fatal(err)
	}
	fb := out[b.offset+int64(plen) : b.offset+int64(plen)+size]
	root, err := flatbuf.Root(fb)
	if err != nil {
		t.Fatal(err)
	}
	rb, _, err := root.TableField(2)
	if err != nil {
		t.Fatal(err)
	}
	start, n, err := rb.Vector(2, 16)
	if err != nil || k >= n {
		t.Fatalf("%d buffers, %v", n, err)
	}
	binary.LittleEndian.PutUint64(fb[start+16*k:], uint64(off))
	return out
}

// TestReadColumnsHostile: a header whose buffer lies past the body, a
// budget smaller than a column, a compressed buffer declaring 64 GiB or
// a negative size, and columns not in the schema or out of order are
// errors that say so, never a panic; the other batches and columns read.
func TestReadColumnsHostile(t *testing.T) {
	ctx := context.Background()
	t.Run("buffer past the body", func(t *testing.T) {
		data := scanFile(t, scanKind{dicts: "same"}, 4, 50)
		bad := patchBuffer(t, data, 2, 1, 1<<20)
		f, err := OpenReader("bad", bytes.NewReader(bad), int64(len(bad)), Options{SmallFile: -1})
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.ReadColumns(ctx, 2, []int{0})
		if err == nil || errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "cannot read record batch 2") || !strings.Contains(err.Error(), "lies outside the") {
			t.Errorf("ReadColumns of a buffer past the body: %v", err)
		}
		if _, err := f.ColumnBytes(2, []int{0}); err == nil || !strings.Contains(err.Error(), "lies outside the") {
			t.Errorf("ColumnBytes of a buffer past the body: %v", err)
		}
		checkColumnsRead(t, f, 3, []int{0, 1}, arrowBatches(t, data, false)[3])
	})
	t.Run("budget", func(t *testing.T) {
		data := imageScanFile(t, scanKind{}, 2, 512) // 1.5 MiB of images a batch
		r := &countingReader{data: data}
		f, err := OpenReader("images", r, int64(len(data)), Options{Budget: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.ColumnBytes(1, []int{1}); err != nil { // the header, read
			t.Fatal(err)
		}
		before := r.bytes.Load()
		_, err = f.ReadColumns(ctx, 1, []int{0, 1})
		want := `columns "id", "image" of record batch 1 needs more memory than the cache budget (1.0 MiB) allows: it declares 1.5 MiB`
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadColumns of 1.5 MiB under a 1 MiB budget: %v; want ErrTooLarge, %q", err, want)
		}
		if n := r.bytes.Load() - before; n != 0 {
			t.Errorf("the refused read read %d bytes", n)
		}
		checkColumnsRead(t, f, 1, []int{0, 2}, arrowBatches(t, data, false)[1])
	})
	t.Run("compressed buffer declares 64 GiB", func(t *testing.T) {
		for _, stream := range []bool{false, true} {
			data, prefixes := compressedFile(t, stream, true)
			binary.LittleEndian.PutUint64(data[prefixes[len(prefixes)-1]:], 64<<30)
			f, err := OpenReader("c", bytes.NewReader(data), int64(len(data)), Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.ReadColumns(ctx, 0, []int{0})
			want := `column "x" of record batch 0 needs more memory than the cache budget (256.0 MiB) allows: it asks for a buffer of 64.0 GiB`
			if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
				t.Errorf("stream %v: %v; want %q", stream, err, want)
			}
			binary.LittleEndian.PutUint64(data[prefixes[len(prefixes)-1]:], uint64(1<<64-5))
			f, err = OpenReader("c", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1})
			if err != nil {
				continue // a stream's index reads the body of its one batch: refused there
			}
			if _, err = f.ReadColumns(ctx, 0, []int{0}); err == nil || errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "declares a negative size (-5)") {
				t.Errorf("stream %v, a negative size: %v", stream, err)
			}
		}
	})
	t.Run("columns", func(t *testing.T) {
		f, err := Open("scan", scanFile(t, scanKind{dicts: "same"}, 1, 10))
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			cols []int
			want string
		}{
			{[]int{8}, "no column 8: the file has 8"},
			{[]int{-1}, "no column -1: the file has 8"},
			{[]int{3, 1}, "columns [3 1] are not in increasing order"},
			{[]int{2, 2}, "columns [2 2] are not in increasing order"},
		} {
			if _, err := f.ReadColumns(ctx, 0, tc.cols); err == nil || err.Error() != tc.want {
				t.Errorf("ReadColumns(0, %v): %v, want %q", tc.cols, err, tc.want)
			}
			if _, err := f.ColumnBytes(0, tc.cols); err == nil || err.Error() != tc.want {
				t.Errorf("ColumnBytes(0, %v): %v, want %q", tc.cols, err, tc.want)
			}
		}
		if _, err := f.ReadColumns(ctx, 1, []int{0}); err == nil || err.Error() != "no record batch 1 (yet)" {
			t.Errorf("ReadColumns(1): %v", err)
		}
	})
}

// TestReadColumnsBroken: a column whose values arrow-go's validation finds
// broken in a batch is a *ColumnError naming it, also in Fields; the
// other columns of the batch read.
func TestReadColumnsBroken(t *testing.T) {
	data := scanFile(t, scanKind{dicts: "same"}, 3, 40)
	// Buffer 3 is name's offsets (after id's validity and values, and
	// name's validity): make them decrease.
	f, err := Open("scan", data)
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := f.index.batchAt(1)
	at, err := f.columnLayout(1, b)
	if err != nil {
		t.Fatal(err)
	}
	offs := at.layout.buffers[3]
	bad := bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[b.offset+at.metaLen+offs.offset+8:], 1<<20)
	g, err := Open("bad", bad)
	if err != nil {
		t.Fatal(err)
	}
	_, err = g.ReadColumns(context.Background(), 1, []int{0, 1})
	var ce *ColumnError
	if !errors.As(err, &ce) || ce.Batch != 1 || ce.Column != 1 || ce.Name != "name" || !strings.HasPrefix(err.Error(), `column "name": utf8: offsets decrease`) {
		t.Fatalf("ReadColumns of broken offsets: %v", err)
	}
	if e := g.Fields()[1].Err; !strings.HasPrefix(e, "record batch 1: utf8: ") {
		t.Errorf("Fields()[1].Err = %q", e)
	}
	checkColumnsRead(t, g, 1, []int{0, 2, 3}, arrowBatches(t, data, false)[1])
}

// TestReadColumnsCancel: a read of a column over BigRead bytes shows in
// Reading and stops between its pieces when its context is cancelled,
// with ErrCanceled; a context done before reads nothing.
func TestReadColumnsCancel(t *testing.T) {
	data := imageScanFile(t, scanKind{}, 1, 4096) // 12 MiB of images
	f, g := openGated(t, data, BigRead-endsChunk, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.ReadColumns(ctx, 0, []int{1}); !errors.Is(err, ErrCanceled) {
		t.Errorf("ReadColumns with a done context: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	g.gated.Store(true)
	done := make(chan error, 1)
	go func() {
		_, err := f.ReadColumns(ctx, 0, []int{1})
		done <- err
	}()
	// The first piece, but what the file's cached head holds of it.
	if n := within(t, g.calls, "gated read"); n > BigRead || n < BigRead-endsChunk {
		t.Errorf("a read of %d bytes, want a piece of %d less up to %d", n, BigRead, endsChunk)
	}
	if d, total := f.Reading(); d != 0 || total != 4096*32*32*3 {
		t.Errorf("Reading = %d, %d; want 0, %d", d, total, 4096*32*32*3)
	}
	cancel()
	release(t, g)
	if err := within(t, done, "ReadColumns' end"); !errors.Is(err, ErrCanceled) || err.Error() != `column "image" of record batch 0: reading cancelled: context canceled` {
		t.Errorf("cancelled ReadColumns: %v", err)
	}
	g.gated.Store(false)
	if _, err := f.ReadColumns(context.Background(), 0, []int{1}); err != nil {
		t.Errorf("ReadColumns after a cancelled one: %v", err)
	}
}

// TestReadColumnsTensorMessage: a lone IPC Tensor message reads as its one
// row.
func TestReadColumnsTensorMessage(t *testing.T) {
	c := tmCases()[0]
	data := c.spec.file()
	f, err := Open("tensor", data)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := f.ReadColumns(context.Background(), 0, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := f.Batch(0)
	if err != nil {
		t.Fatal(err)
	}
	if !array.Equal(rec.Column(0), whole.Column(0)) || rec.NumRows() != 1 {
		t.Errorf("ReadColumns: %v, Batch: %v", rec.Column(0), whole.Column(0))
	}
	if n, err := f.ColumnBytes(0, []int{0}); err != nil || n != int64(len(data)) {
		t.Errorf("ColumnBytes = %d, %v; want %d", n, err, len(data))
	}
}

// storage is an extension array's storage, or arr.
func storage(arr arrow.Array) arrow.Array {
	if e, ok := arr.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return arr
}

// TestParquetReadColumns: a Parquet file's row groups read column by
// column through the source, which is asked for just those columns, equal
// to pqarrow's reading; ColumnBytes is the chunks' compressed bytes, and
// ColumnStats the footer's statistics of a column of one leaf.
func TestParquetReadColumns(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	ref := pqReference(t, data)
	src, meta := newPQSource(t, data)
	f, err := OpenParquet("sample.parquet", int64(len(data)), meta, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	starts := []int64{0, 100, 200}
	for i := range 3 {
		if start, rows, ok := f.BatchRows(i); !ok || start != starts[i] || rows != []int64{100, 100, 50}[i] {
			t.Errorf("BatchRows(%d) = %d, %d, %v", i, start, rows, ok)
		}
		for _, cols := range [][]int{{0}, {1}, {2}, {3}, {4}, {0, 2, 4}, nil} {
			before := len(src.asked)
			rec, err := f.ReadColumns(context.Background(), i, cols)
			if err != nil {
				t.Fatalf("ReadColumns(%d, %v): %v", i, cols, err)
			}
			if len(cols) > 0 && (len(src.asked) != before+1 || fmt.Sprint(src.asked[before]) != fmt.Sprint(cols)) {
				t.Errorf("ReadColumns(%d, %v) asked the source %v", i, cols, src.asked[before:])
			}
			if rec.NumRows() != int64(ref.cols[0][i].Len()) {
				t.Errorf("ReadColumns(%d, %v): %d rows", i, cols, rec.NumRows())
			}
			for j, k := range cols {
				if !array.Equal(storage(rec.Column(j)), storage(ref.cols[k][i])) {
					t.Errorf("ReadColumns(%d, %v): column %d differs", i, cols, k)
				}
				if !rec.Schema().Field(j).Equal(f.Schema.Field(k)) {
					t.Errorf("ReadColumns(%d, %v): field %v, want %v", i, cols, rec.Schema().Field(j), f.Schema.Field(k))
				}
			}
		}
		var want int64
		for _, c := range meta.RowGroups[i].Chunks[:2] { // id, name: a leaf each
			want += c.CompressedBytes
		}
		if got, err := f.ColumnBytes(i, []int{0, 1}); err != nil || got != want {
			t.Errorf("ColumnBytes(%d, id, name) = %d, %v; want %d", i, got, err, want)
		}
		if s, ok := f.ColumnStats(i, 0); !ok || s.NullCount != 0 || s.Min != starts[i] || s.Max != starts[i]+[]int64{99, 99, 49}[i] {
			t.Errorf("ColumnStats(%d, id) = %+v, %v", i, s, ok)
		}
		if s, ok := f.ColumnStats(i, 1); !ok || s.NullCount <= 0 || s.Min == nil {
			t.Errorf("ColumnStats(%d, name) = %+v, %v", i, s, ok)
		}
		if s, ok := f.ColumnStats(i, 4); ok {
			t.Errorf("ColumnStats(%d, vec), a list, = %+v", i, s)
		}
	}
	if _, ok := f.ColumnStats(3, 0); ok {
		t.Error("ColumnStats of row group 3 of 3")
	}
}

// TestParquetColumnStatsChecked: statistics of the wrong Go type, a NaN,
// a minimum above the maximum or a null count past the rows are dropped;
// without chunks ColumnBytes shares the row group's bytes by leaf column.
func TestParquetColumnStatsChecked(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	src, meta := newPQSource(t, data)
	meta.RowGroups[0].Chunks[0].Stats = &ColumnStats{NullCount: 101, Min: "a", Max: "b"}
	meta.RowGroups[1].Chunks[0].Stats = &ColumnStats{NullCount: 3, Min: int64(9), Max: int64(2)}
	meta.RowGroups[2].Chunks = nil
	f, err := OpenParquet("sample.parquet", int64(len(data)), meta, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := f.ColumnStats(0, 0); !ok || s.NullCount != -1 || s.Min != nil || s.Max != nil {
		t.Errorf("ColumnStats of strings for an int64 column = %+v, %v", s, ok)
	}
	if s, ok := f.ColumnStats(1, 0); !ok || s.NullCount != 3 || s.Min != nil || s.Max != nil {
		t.Errorf("ColumnStats of min 9, max 2 = %+v, %v", s, ok)
	}
	if _, ok := f.ColumnStats(2, 0); ok {
		t.Error("ColumnStats of a row group without chunks")
	}
	for _, tc := range []struct {
		dt    arrow.DataType
		v     any
		valid bool
	}{
		{arrow.PrimitiveTypes.Float32, math.NaN(), false}, {arrow.PrimitiveTypes.Float32, 1.5, true},
		{arrow.PrimitiveTypes.Float32, int64(1), false}, {arrow.FixedWidthTypes.Timestamp_us, int64(1), true},
		{arrow.PrimitiveTypes.Uint8, uint64(1), true}, {arrow.PrimitiveTypes.Uint8, int64(1), false},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, "a", true},
		{arrow.BinaryTypes.Binary, []byte("a"), true}, {arrow.FixedWidthTypes.Boolean, true, true},
		{arrow.ListOf(arrow.PrimitiveTypes.Int64), int64(1), false}, {arrow.PrimitiveTypes.Int64, int(1), false},
	} {
		if got := statsValue(statsKind(tc.dt), tc.v); got != tc.valid {
			t.Errorf("a %T statistic of %s: valid %v, want %v", tc.v, tc.dt, got, tc.valid)
		}
	}
	leaves := len(meta.Columns)
	if got, want := f.pq.columnBytes(2, batchInfo{stored: 700}, []int{0, 1}, 5), int64(700*2/leaves); got != want {
		t.Errorf("ColumnBytes without chunks = %d, want %d (of %d leaf columns)", got, want, leaves)
	}
	meta.RowGroups[0].Chunks = meta.RowGroups[0].Chunks[:1]
	if _, err := OpenParquet("sample.parquet", int64(len(data)), meta, src, Options{}); err == nil || !strings.Contains(err.Error(), "row group 0 has 1 column chunks for") {
		t.Errorf("OpenParquet with too few chunks: %v", err)
	}
}

// BenchmarkReadColumns reads the float32 score column of a 1M-row IPC
// file of 16 record batches (id int64, score float32, label utf8), batch
// by batch: 4 MiB of the file's 30 MiB. read/column is the bytes read of
// the file over the column's buffers (headers kept after the first pass).
func BenchmarkReadColumns(b *testing.B) {
	const batches, rows = 16, 1 << 16
	r := &countingReader{data: scoreFile(b, batches, rows)}
	f, err := OpenReader("scores", r, int64(len(r.data)), Options{})
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	var column int64
	for i := range batches {
		n, err := f.ColumnBytes(i, []int{1})
		if err != nil {
			b.Fatal(err)
		}
		column += n
	}
	b.SetBytes(column)
	before := r.bytes.Load()
	b.ResetTimer()
	for b.Loop() {
		for i := range batches {
			rec, err := f.ReadColumns(context.Background(), i, []int{1})
			if err != nil || rec.NumRows() != rows {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(r.bytes.Load()-before)/float64(b.N)/float64(column), "read/column")
}

// scoreFile writes batches record batches of rows rows: id int64, score
// float32, label utf8 ("label" and the row modulo 20).
func scoreFile(t testing.TB, batches, rows int) []byte {
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: arrow.BinaryTypes.String},
	}, nil)
	var recs []arrow.RecordBatch
	for bt := range batches {
		ids, scores, labels := array.NewInt64Builder(mem), array.NewFloat32Builder(mem), array.NewStringBuilder(mem)
		for r := range rows {
			id := bt*rows + r
			ids.Append(int64(id))
			scores.Append(float32(id%1000) / 1000)
			labels.Append(fmt.Sprint("label", id%20))
		}
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), scores.NewArray(), labels.NewArray()}, int64(rows)))
	}
	return testkit.IPCFile(t, schema, recs...)
}

// TestReadColumnsNested: the column of nested record batches
// (arrow.turtle) of the fixture reads as Batch reads it, and so does
// every column of each nested record batch (a File of its own).
func TestReadColumnsNested(t *testing.T) {
	f := open(t, filepath.Join("..", "..", "testdata", "turtle_nested.arrow"))
	col := column(t, f, "runs")
	whole, err := f.Batch(0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := f.ReadColumns(context.Background(), 0, []int{col})
	if err != nil {
		t.Fatal(err)
	}
	if !array.Equal(rec.Column(0), whole.Column(col)) || rec.Schema().Field(0).Type.String() != f.Schema.Field(col).Type.String() {
		t.Errorf("ReadColumns of the arrow.turtle column differs from Batch's")
	}
	opened := 0
	for row := range whole.NumRows() {
		inner, err := openInner(f, row, col)
		if err != nil {
			continue // null, or a nested batch whose error TestNestedRecordBatches checks
		}
		ref, err := inner.Batch(0)
		if err != nil {
			t.Fatal(err)
		}
		for k := range inner.Schema.NumFields() {
			checkColumnsRead(t, inner, 0, []int{k}, ref)
		}
		inner.Close()
		opened++
	}
	if opened == 0 {
		t.Error("no nested record batch opened")
	}
}

// TestReadColumnsInteropCorpus: every column of every record batch of the
// interop corpus's Arrow files (other writers: big-endian, legacy
// compression, views, unions, run-end encoding…) and of testdata's reads
// alone as Batch reads it: equal when Batch's column is valid, an error
// when Batch fails or its column is broken; never a panic.
func TestReadColumnsInteropCorpus(t *testing.T) {
	read, refused := 0, 0
	eachOpened(t, append(testkit.InteropFiles(t), testdataArrow(t)...), func(rel string, f *File) {
		for i := range f.NumBatches() {
			whole, wholeErr := f.Batch(i)
			for k := range f.Schema.NumFields() {
				rec, err := f.ReadColumns(context.Background(), i, []int{k})
				if errors.Is(err, ErrPanic) {
					t.Fatalf("%s batch %d column %d: %v", rel, i, k, err)
				}
				var broken error
				if wholeErr == nil {
					broken = validateArray(whole.Column(k))
				}
				switch {
				case wholeErr != nil || broken != nil:
					if err == nil {
						t.Errorf("%s batch %d column %d reads, but Batch: %v, %v", rel, i, k, wholeErr, broken)
					}
					refused++
				case err != nil:
					t.Errorf("%s batch %d column %d: %v", rel, i, k, err)
				case !array.ApproxEqual(rec.Column(0), whole.Column(k), array.WithNaNsEqual(true), array.WithAbsTolerance(0)): // NaN equals NaN: the same bits read twice
					t.Errorf("%s batch %d column %d differs from Batch's", rel, i, k)
				default:
					read++
				}
			}
		}
	})
	t.Logf("%d columns read as Batch reads them, %d refused as Batch refuses them", read, refused)
}

// testdataArrow lists testdata's Arrow files.
func testdataArrow(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "*.arrow*"))
	if err != nil || len(files) < 10 {
		t.Fatalf("testdata: %d Arrow files, %v", len(files), err)
	}
	return files
}

// eachOpened calls do with each file of paths that opens (and its name),
// then closes it.
func eachOpened(t *testing.T, paths []string, do func(name string, f *File)) {
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Open(filepath.Base(path), data)
		if err != nil {
			continue
		}
		do(filepath.Base(path), f)
		f.Close()
	}
}

// TestReadColumnsConcurrent: ReadColumns of several column sets from
// several goroutines at once, of an indexed file whose rows load
// meanwhile and of one whose headers Index reads meanwhile (under a small
// budget: every batch read by row windows), reads what it reads alone
// (run with -race).
func TestReadColumnsConcurrent(t *testing.T) {
	const batches, rows = 6, 150
	data := scanFile(t, scanKind{dicts: "same"}, batches, rows)
	refs := arrowBatches(t, data, false)
	f, err := Open("scan", data)
	if err != nil {
		t.Fatal(err)
	}
	g, err := OpenReader("scan", bytes.NewReader(data), int64(len(data)), Options{SmallFile: -1, Budget: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	sets := [][]int{{0}, {4}, {1, 3}, {2, 5, 6, 7}}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for w, cols := range sets {
		wg.Go(func() {
			for n := range batches {
				i := (n + w) % batches
				for _, file := range []*File{f, g} {
					rec, err := file.ReadColumns(context.Background(), i, cols)
					if err != nil {
						errs <- fmt.Sprintf("ReadColumns(%d, %v): %v", i, cols, err)
						return
					}
					for j, c := range cols {
						if !array.Equal(rec.Column(j), refs[i].Column(c)) {
							errs <- fmt.Sprintf("ReadColumns(%d, %v): column %d differs", i, cols, c)
						}
					}
				}
			}
		})
	}
	wg.Go(func() {
		if err := g.Index(context.Background(), nil); err != nil {
			errs <- err.Error()
		}
	})
	wg.Go(func() {
		for row := int64(0); row < batches*rows; row += 37 {
			if err := f.Load(row); err != nil {
				errs <- err.Error()
			}
		}
	})
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestValueIn: the values of the tensor, image and nested columns of
// testdata's Arrow files, read from ReadColumns' answer through ValueIn,
// are those Value reads (tensors, dialects, images, nested batches);
// ValueIn refuses a column or row that is not there.
func TestValueIn(t *testing.T) {
	compared := 0
	eachOpened(t, testdataArrow(t), func(path string, f *File) {
		for k, fld := range f.Fields() {
			if fld.Tensor == nil && !fld.Images && !fld.Nested {
				continue
			}
			for i := range min(f.NumBatches(), 2) {
				rec, err := f.ReadColumns(context.Background(), i, []int{k})
				if err != nil {
					continue // a broken column: TestReadColumnsInteropCorpus
				}
				b, _, _ := f.index.batchAt(i)
				for r := range min(int(rec.NumRows()), 4) {
					got, want := describe(f.ValueIn(k, rec.Column(0), r)), describeValue(f, b.start+int64(r), k)
					if got != want {
						t.Errorf("%s column %q batch %d row %d: %s, Value: %s", path, fld.Name, i, r, got, want)
					}
					compared++
				}
			}
		}
		if _, err := f.ValueIn(f.Schema.NumFields(), nil, 0); err == nil {
			t.Errorf("%s: ValueIn of no column", path)
		}
	})
	if compared < 50 {
		t.Errorf("%d values compared", compared)
	}
	t.Logf("%d values compared", compared)
}
