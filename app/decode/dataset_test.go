package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// shardFixture is one file of a test dataset: its bytes, and its columns
// as arrow-go reads them (the reference), by name, row by row.
type shardFixture struct {
	name    string
	data    []byte
	parquet bool
	rows    int
	ref     map[string][]string // column name → ValueStr of each row
	opens   atomic.Int32
}

// shard is the fixture as a Shard, counting its opens.
func (s *shardFixture) shard(t testing.TB, size bool) Shard {
	sz := int64(len(s.data))
	if !size {
		sz = -1
	}
	return Shard{Name: s.name, Size: sz, Open: func(ctx context.Context, opt Options) (*File, error) {
		s.opens.Add(1)
		if s.parquet {
			src, meta := newPQSource(t, s.data)
			return OpenParquet(s.name, int64(len(s.data)), meta, src, opt)
		}
		return OpenReader(s.name, bytes.NewReader(s.data), int64(len(s.data)), opt)
	}}
}

// datasetTensorType is the tensor column's type in the test shards.
func datasetTensorType(t testing.TB) arrow.DataType {
	ft, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ft
}

// makeShard writes rows of columns (name → JSON of the values) as an IPC
// file of batches of batch rows, or as Parquet with row groups of batch
// rows, and reads its reference back with arrow-go.
func makeShard(t testing.TB, name string, fields []arrow.Field, cols map[string]string, rows, batch int, parquet bool) *shardFixture {
	t.Helper()
	schema := arrow.NewSchema(fields, nil)
	var arrs []arrow.Array
	for _, f := range fields {
		if ext, ok := f.Type.(arrow.ExtensionType); ok {
			storage, _, err := array.FromJSON(memory.DefaultAllocator, arrow.ListOf(arrow.PrimitiveTypes.Float32), strings.NewReader(cols[f.Name]))
			if err != nil {
				t.Fatal(err)
			}
			arrs = append(arrs, fixedTensors(ext, storage.(*array.List)))
			continue
		}
		a, _, err := array.FromJSON(memory.DefaultAllocator, f.Type, strings.NewReader(cols[f.Name]))
		if err != nil {
			t.Fatalf("%s %s: %v", name, f.Name, err)
		}
		arrs = append(arrs, a)
	}
	rec := array.NewRecordBatch(schema, arrs, int64(rows))
	s := &shardFixture{name: name, parquet: parquet, rows: rows, ref: map[string][]string{}}
	if parquet {
		// pqarrow writes an extension column as its storage, the type in
		// the field's metadata (restored on reading, as sampleTable's).
		pfields, parrs := slices.Clone(fields), slices.Clone(arrs)
		for k, f := range fields {
			if ext, ok := f.Type.(arrow.ExtensionType); ok {
				md := arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{ext.ExtensionName(), ext.Serialize()})
				pfields[k] = arrow.Field{Name: f.Name, Type: ext.StorageType(), Nullable: true, Metadata: md}
				parrs[k] = arrs[k].(array.ExtensionArray).Storage()
			}
		}
		ps := arrow.NewSchema(pfields, nil)
		tbl := array.NewTableFromRecords(ps, []arrow.RecordBatch{array.NewRecordBatch(ps, parrs, int64(rows))})
		s.data = writeParquet(t, tbl, int64(batch), compress.Codecs.Snappy, true)
	} else {
		var recs []arrow.RecordBatch
		for at := 0; at < rows; at += batch {
			recs = append(recs, rec.NewSlice(int64(at), int64(min(rows, at+batch))))
		}
		s.data = testkit.IPCFile(t, schema, recs...)
		r, err := ipc.NewFileReader(bytes.NewReader(s.data))
		if err != nil {
			t.Fatal(err)
		}
		var got []arrow.RecordBatch
		for i := range r.NumRecords() {
			rb, err := r.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			rb.Retain()
			got = append(got, rb)
		}
		rec = concatRecords(t, schema, got)
	}
	if parquet {
		ref := pqReference(t, s.data)
		for c, f := range ref.schema.Fields() {
			for _, a := range ref.cols[c] {
				for i := range a.Len() {
					s.ref[f.Name] = append(s.ref[f.Name], valueStr(a, i))
				}
			}
		}
		return s
	}
	for c, f := range schema.Fields() {
		for i := range rows {
			s.ref[f.Name] = append(s.ref[f.Name], valueStr(rec.Column(c), i))
		}
	}
	return s
}

// fixedTensors is a fixed_shape_tensor array of ext holding the rows of
// lists (each of its size).
func fixedTensors(ext arrow.ExtensionType, lists *array.List) arrow.Array {
	b := array.NewFixedSizeListBuilderWithField(memory.DefaultAllocator, 4, arrow.Field{Name: "item", Type: arrow.PrimitiveTypes.Float32, Nullable: true})
	vb := b.ValueBuilder().(*array.Float32Builder)
	vals := lists.ListValues().(*array.Float32)
	for i := range lists.Len() {
		b.Append(true)
		from, to := lists.ValueOffsets(i)
		vb.AppendValues(vals.Float32Values()[from:to], nil)
	}
	return array.NewExtensionArrayWithStorage(ext, b.NewArray())
}

// concatRecords joins record batches into one.
func concatRecords(t testing.TB, schema *arrow.Schema, recs []arrow.RecordBatch) arrow.RecordBatch {
	t.Helper()
	var cols []arrow.Array
	var n int64
	for _, r := range recs {
		n += r.NumRows()
	}
	for c := range schema.NumFields() {
		var parts []arrow.Array
		for _, r := range recs {
			parts = append(parts, r.Column(c))
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(schema, cols, n)
}

// valueStr is value i of a as text, "null" for a null.
func valueStr(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	return a.ValueStr(i)
}

// testShards are a dataset's files: two IPC files and a Parquet file
// whose columns agree by name (in other orders; the Parquet file without
// "name", the second IPC file with a column "extra"), a file that is not
// Arrow, and one whose "id" is int32.
func testShards(t testing.TB) []*shardFixture {
	tt := datasetTensorType(t)
	id := arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}
	name := arrow.Field{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}
	tensor := arrow.Field{Name: "tensor", Type: tt, Nullable: true}
	tensors := func(from, n int) string {
		var rows []string
		for r := range n {
			v := float32(from+r) / 2
			rows = append(rows, fmt.Sprintf("[%g, %g, %g, %g]", v, v+1, v+2, v+3))
		}
		return "[" + strings.Join(rows, ",") + "]"
	}
	seq := func(from, n int, f string) string {
		var rows []string
		for r := range n {
			rows = append(rows, fmt.Sprintf(f, from+r))
		}
		return "[" + strings.Join(rows, ",") + "]"
	}
	a := makeShard(t, "part-2.arrow", []arrow.Field{id, name, tensor}, map[string]string{
		"id": seq(0, 7, "%d"), "name": seq(0, 7, `"a%d"`), "tensor": tensors(0, 7)}, 7, 3, false)
	extra := arrow.Field{Name: "extra", Type: arrow.PrimitiveTypes.Uint8, Nullable: true}
	b := makeShard(t, "part-10.arrow", []arrow.Field{tensor, extra, name, id}, map[string]string{
		"id": seq(100, 5, "%d"), "name": seq(100, 5, `"b%d"`), "tensor": tensors(100, 5), "extra": seq(0, 5, "%d")}, 5, 5, false)
	c := makeShard(t, "part-11.parquet", []arrow.Field{id, tensor}, map[string]string{
		"id": seq(200, 9, "%d"), "tensor": tensors(200, 9)}, 9, 4, true)
	bad := &shardFixture{name: "part-12.arrow", data: []byte("this is not an Arrow file at all, it is text"), ref: map[string][]string{}}
	id32 := arrow.Field{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	e := makeShard(t, "part-13.arrow", []arrow.Field{id32, name, tensor}, map[string]string{
		"id": seq(300, 2, "%d"), "name": seq(300, 2, `"e%d"`), "tensor": tensors(300, 2)}, 2, 2, false)
	return []*shardFixture{a, b, c, bad, e}
}

func openTestDataset(t *testing.T, fx []*shardFixture, size bool) *File {
	t.Helper()
	var shards []Shard
	for _, s := range fx {
		shards = append(shards, s.shard(t, size))
	}
	f, err := OpenDataset(context.Background(), "parts", shards, Options{Budget: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f
}

// TestDatasetValues: the dataset's rows are its shards' in order, every
// value equal to arrow-go's reading of its shard (a column the shard has
// not is null, one of another type that shard's error), the shards opened
// once each, only the first at open.
func TestDatasetValues(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, true)
	for i, s := range fx {
		if want := int32(min(1, 1-i)); i > 0 && s.opens.Load() != 0 || i == 0 && s.opens.Load() != 1 {
			t.Errorf("after open, %s opened %d times, want %d", s.name, s.opens.Load(), max(want, 0))
		}
	}
	if got := fieldNames(f.Schema); got != "id name tensor file" {
		t.Errorf("columns %q, want the first shard's", got)
	}
	if n, exact := f.Rows(); exact || n <= 7 {
		t.Errorf("Rows before the others open = %d, %v; want an estimate past the first shard's 7", n, exact)
	}
	if f.Indexed() {
		t.Error("Indexed before Index")
	}
	// Row 8 is in a shard not yet open: reading it opens it.
	if v, err := f.Value(8, 0); err != nil || valueStr(v.Array, v.Index) != "101" {
		t.Errorf("row 8's id = %v, %v; want 101 (the second shard's second row)", v.Array, err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n, exact := f.Rows(); n != 7+5+9+2 || !exact || !f.Indexed() {
		t.Errorf("Rows after Index = %d, %v (indexed %v); want 23, exact", n, exact, f.Indexed())
	}
	for _, s := range fx {
		if s.opens.Load() != 1 {
			t.Errorf("%s opened %d times, want once", s.name, s.opens.Load())
		}
	}
	row := int64(0)
	for si, s := range fx {
		if si == 3 {
			continue // not Arrow: no rows
		}
		if got, name, ok := f.ShardOf(row); !ok || got != si || name != s.name {
			t.Errorf("ShardOf(%d) = %d, %v; want %d", row, got, ok, si)
		}
		for r := range s.rows {
			for c, fld := range f.Schema.Fields() {
				v, err := f.Value(row, c)
				want, has := s.ref[fld.Name]
				switch {
				case si == 4 && fld.Name == "id":
					if err == nil || !strings.Contains(err.Error(), "int32 in part-13.arrow, int64 in part-2.arrow") {
						t.Errorf("row %d %s: %v, want the type mismatch", row, fld.Name, err)
					}
				case err != nil:
					t.Errorf("row %d %s: %v", row, fld.Name, err)
				case fld.Name == "file": // the dataset's: the row's file
					if got := valueStr(v.Array, v.Index); got != s.name {
						t.Errorf("row %d file = %s, want %s", row, got, s.name)
					}
				case !has:
					if !v.Array.IsNull(v.Index) {
						t.Errorf("row %d %s = %s, want null (not in %s)", row, fld.Name, valueStr(v.Array, v.Index), s.name)
					}
				case valueStr(v.Array, v.Index) != want[r]:
					t.Errorf("row %d %s = %s, want %s", row, fld.Name, valueStr(v.Array, v.Index), want[r])
				}
			}
			tn, err := f.Tensor(row, 2)
			if err != nil {
				t.Errorf("row %d tensor: %v", row, err)
			} else if got := shardTensorText(tn); got != tensorText(s.ref["tensor"][r]) {
				t.Errorf("row %d tensor = %s, want %s", row, got, s.ref["tensor"][r])
			}
			row++
		}
	}
	if _, err := f.Value(row, 0); err == nil {
		t.Errorf("Value(%d) past the end: no error", row)
	}
	warnings := strings.Join(f.Warnings(), "\n")
	for _, w := range []string{`part-10.arrow has columns the dataset's first file has not, not shown: "extra"`,
		"cannot open part-12.arrow:", `column "id" is int32 in part-13.arrow`} {
		if !strings.Contains(warnings, w) {
			t.Errorf("warnings %q lack %q", warnings, w)
		}
	}
	info := f.Shards()
	if len(info) != 5 || info[3].Err == "" || info[3].Rows != 0 || info[2].Start != 12 || info[2].Rows != 9 || !info[2].Exact || !info[2].Placed || info[2].File.Format != Parquet {
		t.Errorf("Shards = %+v", info)
	}
}

// tensorText is a tensor's JSON storage as fmt prints its values.
func tensorText(js string) string {
	return "[" + strings.NewReplacer(",", " ", "[", "", "]", "").Replace(js) + "]"
}

// shardTensorText is a tensor's values in physical order as fmt prints them.
func shardTensorText(t tensorext.Tensor) string {
	var vs []float64
	t.Positions(func(pos int) bool {
		v, _ := t.Float64(pos)
		vs = append(vs, v)
		return true
	})
	return fmt.Sprint(vs)
}

func fieldNames(s *arrow.Schema) string {
	var names []string
	for _, f := range s.Fields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, " ")
}

// TestDatasetScan: the dataset's record batches, numbered over the shards
// once indexed, read by ReadColumns and Batch as the dataset's columns
// (nulls for a column a shard has not; one it has of another type is a
// ColumnError of ReadColumns, nulls in Batch), their rows placed by
// BatchRows one after another, equal to the values.
func TestDatasetScan(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, false)
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// Batches: 3 + 1 + 3 (row groups of 4) + 0 + 1.
	if n := f.NumBatches(); n != 8 {
		t.Fatalf("NumBatches = %d, want 8", n)
	}
	var next int64
	for i := range f.NumBatches() {
		start, rows, ok := f.BatchRows(i)
		if !ok || start != next {
			t.Fatalf("BatchRows(%d) = %d, %d, %v; want start %d", i, start, rows, ok, next)
		}
		if n, err := f.BatchRowCount(i); err != nil || n != rows {
			t.Errorf("BatchRowCount(%d) = %d, %v; want %d", i, n, err, rows)
		}
		rec, err := f.ReadColumns(context.Background(), i, []int{0, 2, 3})
		if i == 7 {
			// part-13.arrow's id is int32: a scan of it cannot read
			// it there (rather than take its rows for nulls).
			var ce *ColumnError
			if !errors.As(err, &ce) || ce.Column != 0 || ce.Err != "int32 in part-13.arrow, int64 in part-2.arrow" {
				t.Errorf("ReadColumns(7, id and tensor) = %v, want the ColumnError of id", err)
			}
			rec, err = f.ReadColumns(context.Background(), i, []int{2, 3})
			if err == nil {
				rec = array.NewRecordBatch(arrow.NewSchema([]arrow.Field{f.Schema.Field(0), f.Schema.Field(2), f.Schema.Field(3)}, nil),
					[]arrow.Array{array.MakeArrayOfNull(memory.DefaultAllocator, f.Schema.Field(0).Type, int(rec.NumRows())), rec.Column(0), rec.Column(1)}, rec.NumRows())
			}
		}
		if err != nil {
			t.Fatalf("ReadColumns(%d): %v", i, err)
		}
		whole, err := f.Batch(i)
		if err != nil {
			t.Fatalf("Batch(%d): %v", i, err)
		}
		if rec.NumRows() != rows || whole.NumRows() != rows || whole.NumCols() != 4 || !whole.Schema().Equal(f.Schema) {
			t.Fatalf("batch %d: %d/%d rows, schema %v", i, rec.NumRows(), whole.NumRows(), whole.Schema())
		}
		for r := range int(rows) {
			for j, c := range []int{0, 2, 3} {
				v, err := f.Value(start+int64(r), c)
				want := "null" // the value's error: a null in a scan
				if err == nil {
					want = valueStr(v.Array, v.Index)
				}
				if got := valueStr(rec.Column(j), r); got != want {
					t.Errorf("batch %d row %d column %d: ReadColumns %s, Value %s", i, r, c, got, want)
				}
				if got := valueStr(whole.Column(c), r); got != want {
					t.Errorf("batch %d row %d column %d: Batch %s, Value %s", i, r, c, got, want)
				}
			}
		}
		next += rows
	}
	if next != 23 {
		t.Errorf("batches hold %d rows, want 23", next)
	}
	if n, exact, err := f.ColumnsBytes([]int{0}); err != nil || !exact || n <= 0 {
		t.Errorf("ColumnsBytes = %d, %v, %v", n, exact, err)
	}
}

// TestDatasetWindows: rows of a shard not yet open are one window, Unread,
// that loading opens; the shards' windows share one cache without taking
// each other's place (batch 0 of two shards).
func TestDatasetWindows(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, true)
	if _, w, ok := f.Window(9); !ok || w != -2 || f.WindowState(9) != Unread {
		t.Errorf("row 9 before its shard opens: window %d, %v, state %v", w, ok, f.WindowState(9))
	}
	if err := f.LoadContext(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.LoadContext(context.Background(), 9); err != nil {
		t.Fatal(err)
	}
	b0, _, _ := f.Window(0)
	b9, _, _ := f.Window(9)
	if b0 == b9 || f.WindowState(9) != Loaded || f.WindowState(0) != Loaded {
		t.Errorf("windows: row 0 in batch %d (%v), row 9 in %d (%v)", b0, f.WindowState(0), b9, f.WindowState(9))
	}
	v0, _ := f.Value(0, 1)
	v9, _ := f.Value(9, 1)
	if valueStr(v0.Array, v0.Index) != "a0" || valueStr(v9.Array, v9.Index) != "b102" {
		t.Errorf("names %s, %s; want a0, b102", valueStr(v0.Array, v0.Index), valueStr(v9.Array, v9.Index))
	}
	if used, budget := f.CacheBytes(); used <= 0 || budget != 8<<20 {
		t.Errorf("CacheBytes = %d, %d", used, budget)
	}
}

// TestDatasetConcurrent: readers of many rows and Index at once open each
// shard once and agree.
func TestDatasetConcurrent(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, true)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := int64(g); r < 23; r += 2 {
				_, _ = f.Value(r, 1)
			}
		}()
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for _, s := range fx {
		if n := s.opens.Load(); n != 1 {
			t.Errorf("%s opened %d times", s.name, n)
		}
	}
}

// TestDatasetCancel: an open stopped by its context leaves the shard to be
// opened again; a failed one is tried again after Forget(Failed).
func TestDatasetCancel(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, true)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.LoadContext(ctx, 9); !errors.Is(err, ErrCanceled) {
		t.Errorf("LoadContext with a done context: %v", err)
	}
	if err := f.LoadContext(context.Background(), 9); err != nil {
		t.Errorf("LoadContext again: %v", err)
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if fx[3].opens.Load() != 1 || f.Forget(Failed) < 1 {
		t.Fatalf("the broken shard: %d opens", fx[3].opens.Load())
	}
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if fx[3].opens.Load() != 2 {
		t.Errorf("after Forget(Failed) the broken shard opened %d times, want 2", fx[3].opens.Load())
	}
}

// TestDatasetFirstFails: the first shard that opens gives the schema;
// none opening is an error naming them.
func TestDatasetFirstFails(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, []*shardFixture{fx[3], fx[1], fx[0]}, true)
	if got := fieldNames(f.Schema); got != "tensor extra name id file" {
		t.Errorf("columns %q, want part-10's", got)
	}
	if _, err := OpenDataset(context.Background(), "broken", []Shard{fx[3].shard(t, true)}, Options{}); err == nil || !strings.Contains(err.Error(), "part-12.arrow") {
		t.Errorf("a dataset of a broken file: %v", err)
	}
	if _, err := OpenDataset(context.Background(), "empty", nil, Options{}); err == nil {
		t.Error("a dataset of no files: no error")
	}
}

// TestDatasetPlaced: a global row is where it stays only once the shards
// before its own are counted. Before they open, a row past the first
// shard's is not placed (Window, ShardOf: not ok) unless its shard starts
// where the counted ones end; reading it opens and counts the shards
// before it first, so it is the row it will stay (not the row of the
// estimates, which the shards' sizes make wrong here); Placement counts
// the changes.
func TestDatasetPlaced(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, true)
	if _, _, ok := f.Window(3); !ok {
		t.Error("row 3, of the first shard: not placed")
	}
	if _, _, ok := f.Window(13); ok {
		t.Error("row 13 placed before the shards before its own are counted")
	}
	if _, _, ok := f.ShardOf(13); ok {
		t.Error("ShardOf(13) ok before the shards before it are counted")
	}
	p := f.Placement()
	// Row 13 is part-11.parquet's second row (7 + 5 rows before it).
	v, err := f.Value(13, 0)
	if err != nil || valueStr(v.Array, v.Index) != "201" {
		t.Errorf("row 13's id = %v, %v; want 201", v.Array, err)
	}
	if shard, name, ok := f.ShardOf(13); !ok || shard != 2 || name != "part-11.parquet" {
		t.Errorf("ShardOf(13) = %d, %q, %v after reading it", shard, name, ok)
	}
	if _, _, ok := f.Window(13); !ok {
		t.Error("row 13 not placed after reading it")
	}
	if f.Placement() == p {
		t.Error("Placement did not change as the shards opened")
	}
	tn, err := f.Tensor(14, 2)
	if err != nil || shardTensorText(tn) != tensorText(fx[2].ref["tensor"][2]) {
		t.Errorf("row 14's tensor = %v, %v; want %s", shardTensorText(tn), err, fx[2].ref["tensor"][2])
	}
	// The last row, in a fresh dataset.
	g := openTestDataset(t, testShards(t), true)
	if v, err := g.Value(22, 1); err != nil || valueStr(v.Array, v.Index) != "e301" {
		t.Errorf("row 22's name = %v, %v; want e301 (the last row)", v.Array, err)
	}
	if _, err := g.Value(23, 1); err == nil {
		t.Error("row 23, past the end: no error")
	}
}

// TestDatasetManyShards: 10,000 files open as one table, indexed, every
// shard's first row where it belongs (a test of the dataset's
// bookkeeping at the scale of a large listing, not of speed).
func TestDatasetManyShards(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 files")
	}
	fx := testShards(t)[0] // 7 rows in 3 batches
	const n = 10000
	shards := make([]Shard, n)
	for i := range shards {
		shards[i] = fx.shard(t, i%2 == 0) // half of the sizes unknown
		shards[i].Name = fmt.Sprintf("part-%05d.arrow", i)
	}
	f, err := OpenDataset(context.Background(), "many", shards, Options{Budget: 8 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var last int64
	if err := f.Index(context.Background(), func(done, total int64) { last = done }); err != nil {
		t.Fatal(err)
	}
	if rows, exact := f.Rows(); rows != 7*n || !exact || f.NumBatches() != 3*n {
		t.Fatalf("Rows = %d, %v, batches %d; want %d rows, exact, %d batches", rows, exact, f.NumBatches(), 7*n, 3*n)
	}
	for _, i := range []int{0, 1, 4999, 9998, 9999} {
		row := int64(7*i + 6)
		if s, name, ok := f.ShardOf(row); !ok || s != i || name != fmt.Sprintf("part-%05d.arrow", i) {
			t.Errorf("ShardOf(%d) = %d, %q, %v", row, s, name, ok)
		}
		if v, err := f.Value(row, 0); err != nil || valueStr(v.Array, v.Index) != "6" {
			t.Errorf("row %d's id = %v, %v; want 6", row, v.Array, err)
		}
	}
	if last == 0 {
		t.Error("Index reported no progress")
	}
}

// TestDatasetLateSizes: sizes given after the dataset opened (a listing's)
// place the rows of the shards not open by them, and sum to Size; -1 and
// missing sizes leave a shard's as it was; a File of one file ignores them.
func TestDatasetLateSizes(t *testing.T) {
	fx := testShards(t)
	f := openTestDataset(t, fx, false)
	before := f.Shards()
	if before[1].Size != -1 || f.Size != 0 {
		t.Fatalf("before: shard 1's size %d, the dataset's %d; want -1 and 0", before[1].Size, f.Size)
	}
	// Shard 1 (5 rows) said to be 3 times the first's bytes (7 rows): 21 rows.
	sizes := []int64{int64(len(fx[0].data)), 3 * int64(len(fx[0].data)), -1}
	f.SetShardSizes(sizes)
	after := f.Shards()
	if after[1].Size != sizes[1] || after[2].Size != -1 || after[4].Size != -1 {
		t.Errorf("sizes after: %d, %d, %d; want %d, -1, -1", after[1].Size, after[2].Size, after[4].Size, sizes[1])
	}
	if after[1].Rows != 21 || after[1].Exact {
		t.Errorf("shard 1's estimate %d (exact %v), want 21 from its size", after[1].Rows, after[1].Exact)
	}
	if after[2].Start != 7+21 {
		t.Errorf("shard 2 starts at %d, want %d", after[2].Start, 7+21)
	}
	if want := sizes[0] + sizes[1]; f.Size != want {
		t.Errorf("Size %d, want %d", f.Size, want)
	}
	// Opening it makes its count exact whatever its size said.
	if err := f.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n, exact := f.Rows(); n != 7+5+9+2 || !exact {
		t.Errorf("indexed: %d rows (exact %v), want 23", n, exact)
	}
	one, err := OpenReader("one.arrow", bytes.NewReader(fx[0].data), int64(len(fx[0].data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	one.SetShardSizes([]int64{1})
	if one.Size != int64(len(fx[0].data)) || one.Shards() != nil {
		t.Errorf("a file's Size %d after SetShardSizes, want %d", one.Size, len(fx[0].data))
	}
}
