//go:build !wasm

package e2e

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	flatbuffers "github.com/google/flatbuffers/go"

	"github.com/tensorview/tensorview/tensorext"
)

// badMetadataFile writes an IPC file whose "t" column claims
// arrow.fixed_shape_tensor with a shape that does not match its storage,
// beside a good "id" column and a column of HTML-looking text.
func badMetadataFile(t *testing.T) string {
	mem := memory.DefaultAllocator
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{7, 8}, nil)
	ids := ib.NewArray()
	lb := array.NewFixedSizeListBuilder(mem, 4, arrow.PrimitiveTypes.Float32)
	vb := lb.ValueBuilder().(*array.Float32Builder)
	for r := 0; r < 2; r++ {
		lb.Append(true)
		vb.AppendValues([]float32{1, 2, 3, 4}, nil)
	}
	lists := lb.NewArray()
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"<i>not italic</i>", `<img src=x onerror="window.pwned=1">`}, nil)
	html := sb.NewArray()
	md := arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{"arrow.fixed_shape_tensor", `{"shape":[3,3]}`})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "t", Type: lists.DataType(), Nullable: true, Metadata: md},
		{Name: "<b>html</b>", Type: arrow.BinaryTypes.String},
	}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{ids, lists, html}, 2)
	return writeIPCFile(t, "bad_metadata.arrow", schema, rec)
}

// writeIPCFile writes record batches as an Arrow IPC file in a temporary
// directory and returns its path.
func writeIPCFile(t *testing.T, name string, schema *arrow.Schema, recs ...arrow.RecordBatch) string {
	t.Helper()
	return writeIPCFileWith(t, name, schema, nil, recs...)
}

// writeIPCFileWith writes an IPC file with arrow-go's writer options (such
// as compression).
func writeIPCFileWith(t *testing.T, name string, schema *arrow.Schema, opts []ipc.Option, recs ...arrow.RecordBatch) string {
	t.Helper()
	return writeIPC(t, name, false, append([]ipc.Option{ipc.WithSchema(schema)}, opts...), recs...)
}

// writeIPCStream writes record batches as an Arrow IPC stream.
func writeIPCStream(t *testing.T, name string, schema *arrow.Schema, recs ...arrow.RecordBatch) string {
	t.Helper()
	return writeIPC(t, name, true, []ipc.Option{ipc.WithSchema(schema)}, recs...)
}

// writeIPC writes record batches as an IPC file (or stream) named name in
// a temporary directory and returns its path.
func writeIPC(t *testing.T, name string, stream bool, opts []ipc.Option, recs ...arrow.RecordBatch) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(f, opts...)
	} else if w, err = ipc.NewFileWriter(f, opts...); err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// tensor4DFile writes an IPC file with one column "t" of float32 tensors of
// shape [2,3,4,5], dim names N,C,H,W, two rows; element (n,c,h,w) of row r
// is r*10000 + 1000n + 100c + 10h + w.
func tensor4DFile(t *testing.T) (path string, row1 []float32) {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3, 4, 5}, nil, []string{"N", "C", "H", "W"})
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	for r := 0; r < 2; r++ {
		var vals []float32
		for n := 0; n < 2; n++ {
			for c := 0; c < 3; c++ {
				for h := 0; h < 4; h++ {
					for w := 0; w < 5; w++ {
						vals = append(vals, float32(r*10000+1000*n+100*c+10*h+w))
					}
				}
			}
		}
		if err := b.AppendTensor(vals); err != nil {
			t.Fatal(err)
		}
		row1 = vals
	}
	arr := b.NewFixedShapeTensorArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, 2)
	defer rec.Release()
	return writeIPCFile(t, "tensor4d.arrow", schema, rec), row1
}

// batchesFile writes an IPC file (or stream) of batches record batches of
// rowsPer rows: "id" (the global row) and "image", uint8 [32,32,3] H,W,C,
// whose element k of row id is (id + k) % 251.
func batchesFile(t *testing.T, name string, stream bool, batches, rowsPer int) string {
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{32, 32, 3}, nil, []string{"H", "W", "C"})
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "image", Type: typ, Nullable: true}}, nil)
	path := filepath.Join(t.TempDir(), name)
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	var w interface {
		Write(arrow.RecordBatch) error
		Close() error
	}
	if stream {
		w = ipc.NewWriter(out, ipc.WithSchema(schema))
	} else if w, err = ipc.NewFileWriter(out, ipc.WithSchema(schema)); err != nil {
		t.Fatal(err)
	}
	vals := make([]uint8, rowsPer*32*32*3)
	for b := 0; b < batches; b++ {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		for r := 0; r < rowsPer; r++ {
			id := b*rowsPer + r
			ids.Append(int64(id))
			for k := 0; k < 32*32*3; k++ {
				vals[r*32*32*3+k] = uint8((id + k) % 251)
			}
		}
		if err := tb.AppendTensors(vals); err != nil {
			t.Fatal(err)
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, int64(rowsPer))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// ipcBatch is where a record batch message of an IPC file is, in file
// offsets: the message's start, its RecordBatch.length, the length of each
// FieldNode, its body, and each buffer's offset in the body and length.
type ipcBatch struct {
	start   int
	length  int
	nodes   []int
	body    int
	buffers [][2]int64
}

// firstBatch finds the first record batch of an IPC file as arrow-go writes
// it (ipcBatches).
func firstBatch(t *testing.T, data []byte) ipcBatch {
	t.Helper()
	all := ipcBatches(t, data)
	if len(all) == 0 {
		t.Fatal("no record batch in the file")
	}
	return all[0]
}

// ipcBatches finds the record batches of an IPC file as arrow-go writes
// it: the 8-byte magic, then messages (0xFFFFFFFF, the metadata's length,
// the Message flatbuffer, the body), read with the flatbuffers runtime
// (format/Message.fbs: Message{version, header_type, header, bodyLength},
// RecordBatch{length, nodes, buffers, compression}).
func ipcBatches(t *testing.T, data []byte) []ipcBatch {
	t.Helper()
	var all []ipcBatch
	for p := 8; p+8 <= len(data); {
		if binary.LittleEndian.Uint32(data[p:]) != 0xFFFFFFFF {
			t.Fatalf("no message at offset %d", p)
		}
		n, meta := int(binary.LittleEndian.Uint32(data[p+4:])), p+8
		if n == 0 || meta+n > len(data) {
			break
		}
		msg := flatbuffers.Table{Bytes: data[meta : meta+n]}
		msg.Pos = flatbuffers.GetUOffsetT(msg.Bytes)
		if msg.GetByteSlot(6, 0) == 3 { // MessageHeader.RecordBatch
			var rb flatbuffers.Table
			msg.Union(&rb, flatbuffers.UOffsetT(msg.Offset(8)))
			if rb.Offset(4) == 0 {
				t.Fatal("the record batch has no length")
			}
			b := ipcBatch{start: p, length: meta + int(rb.Pos) + int(rb.Offset(4)), body: meta + n}
			if o := flatbuffers.UOffsetT(rb.Offset(6)); o != 0 {
				for i, v := 0, int(rb.Vector(o)); i < rb.VectorLen(o); i++ {
					b.nodes = append(b.nodes, meta+v+16*i)
				}
			}
			if o := flatbuffers.UOffsetT(rb.Offset(8)); o != 0 {
				for i, v := 0, int(rb.Vector(o)); i < rb.VectorLen(o); i++ {
					at := msg.Bytes[v+16*i:]
					b.buffers = append(b.buffers, [2]int64{int64(binary.LittleEndian.Uint64(at)), int64(binary.LittleEndian.Uint64(at[8:]))})
				}
			}
			all = append(all, b)
		}
		p = meta + n + int(msg.GetInt64Slot(10, 0))
	}
	return all
}

// int64File writes an IPC file of one int64 column "x" holding 0..99, with
// arrow-go's writer options, and returns its bytes.
func int64File(t *testing.T, opts ...ipc.Option) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range 100 {
		ib.Append(int64(i))
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ib.NewArray()}, 100)
	data, err := os.ReadFile(writeIPCFileWith(t, "x.arrow", schema, opts, rec))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// declaredSizeFile writes int64File compressed (lz4 or zstd) with the
// values buffer's 8-byte uncompressed-length prefix set to declared.
func declaredSizeFile(t *testing.T, zstd bool, declared int64) []byte {
	t.Helper()
	opt := ipc.WithLZ4()
	if zstd {
		opt = ipc.WithZstd()
	}
	data := int64File(t, opt)
	b := firstBatch(t, data)
	at := -1
	for _, buf := range b.buffers {
		if buf[1] > 0 {
			at = b.body + int(buf[0]) // the last with data: the values
		}
	}
	if at < 0 || binary.LittleEndian.Uint64(data[at:]) != 800 {
		t.Fatalf("the values buffer's prefix is not 800 (100 int64s): buffers %v", b.buffers)
	}
	binary.LittleEndian.PutUint64(data[at:], uint64(declared))
	return data
}

// hugeRowsFile writes int64File with its record batch claiming 2^40 rows;
// with nodes, its field node too.
func hugeRowsFile(t *testing.T, nodes bool) []byte {
	t.Helper()
	data := int64File(t)
	b := firstBatch(t, data)
	at := []int{b.length}
	if nodes {
		at = append(at, b.nodes...)
	}
	for _, p := range at {
		if binary.LittleEndian.Uint64(data[p:]) != 100 {
			t.Fatalf("no length 100 at %d", p)
		}
		binary.LittleEndian.PutUint64(data[p:], 1<<40)
	}
	return data
}

// formulaPNG is the formula PNG of testdata/images_bytes.arrow (row 0 of
// its image column).
func formulaPNG(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "images_bytes.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewFileReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rec, err := r.Record(0)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Clone(rec.Column(1).(*array.Binary).Value(0))
}

// manyImagesFile writes rows binary cells: a 3840×2160 JPEG in even rows,
// the formula PNG of images_bytes.arrow in odd ones.
func manyImagesFile(t *testing.T, rows int) string {
	t.Helper()
	// A photo-sized JPEG, slow enough to decode that rows leave the view
	// before their thumbnails are ready, between copies of the formula PNG.
	img := image.NewRGBA(image.Rect(0, 0, 3840, 2160))
	for y := range 2160 {
		for x := range 3840 {
			img.SetRGBA(x, y, color.RGBA{uint8(x / 15), uint8(y / 9), uint8(x ^ y), 255})
		}
	}
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, img, &jpeg.Options{Quality: 85}); err != nil {
		t.Fatal(err)
	}
	pics := [][]byte{jpg.Bytes(), formulaPNG(t)}
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	for i := range rows {
		bld.Append(pics[i%len(pics)])
	}
	col := bld.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "image", Type: arrow.BinaryTypes.Binary, Nullable: true}}, nil)
	out := array.NewRecordBatch(schema, []arrow.Array{col}, int64(rows))
	defer out.Release()
	return writeIPCFile(t, "many_images.arrow", schema, out)
}

// parquetRowGroupsFile writes, with arrow-go's pqarrow, a Parquet file of
// 3 row groups of n rows: id (int64, the row number) and v (float64,
// id*10+0.5); no compression, no dictionary. It returns the file and, for
// each row group, the byte range of v's column chunk.
func parquetRowGroupsFile(t *testing.T, n int) (data []byte, chunks [][2]int64) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Float64}}, nil)
	var buf bytes.Buffer
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed), parquet.WithDictionaryDefault(false))
	w, err := pqarrow.NewFileWriter(schema, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for g := range 3 {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		vs := array.NewFloat64Builder(memory.DefaultAllocator)
		for r := g * n; r < g*n+n; r++ {
			ids.Append(int64(r))
			vs.Append(float64(r*10) + 0.5)
		}
		if g > 0 {
			w.NewBufferedRowGroup()
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), vs.NewArray()}, int64(n))
		if err := w.WriteBuffered(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data = buf.Bytes()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for g := range pf.NumRowGroups() {
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(1)
		if err != nil {
			t.Fatal(err)
		}
		chunks = append(chunks, [2]int64{cc.DataPageOffset(), cc.DataPageOffset() + cc.TotalCompressedSize()})
	}
	return data, chunks
}

// tensorRowsFile writes an IPC file of one record batch: rows of an int64
// "id" column (id(r)) and a uint8 fixed_shape_tensor column named field of
// the given shape and dim_names, element k of row r being value(r, k).
func tensorRowsFile(t *testing.T, name, field string, rows int, shape []int, dims []string, id func(r int) int64, value func(r, k int) uint8) string {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, shape, nil, dims)
	if err != nil {
		t.Fatal(err)
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: field, Type: typ}}, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	vals := make([]uint8, rows*size)
	for r := range rows {
		ids.Append(id(r))
		for k := range size {
			vals[r*size+k] = value(r, k)
		}
	}
	if err := tb.AppendTensors(vals); err != nil {
		t.Fatal(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, int64(rows))
	defer rec.Release()
	return writeIPCFile(t, name, schema, rec)
}
