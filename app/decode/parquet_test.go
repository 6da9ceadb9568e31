package decode

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/tensorview/tensorview/tensorext"
)

// Parquet files are opened with OpenParquet and a ParquetSource; here the
// source is arrow-go's pqarrow (parquetsource_test.go), and every value is
// compared with pqarrow's own reading of the whole file or with the values
// the files were written with.

// reference is an independent reading of a file: its schema and, for each
// column, its arrays (one per row group, or record batch).
type reference struct {
	schema *arrow.Schema
	cols   [][]arrow.Array
}

// tally counts what compareValues covered: the values, those that cannot
// be read, those of tensor columns that read as tensors (or nulls), and the
// row windows f read.
type tally struct{ cells, errCells, tensors, windows int }

// compareValues compares every value f reads (Value) with ref's by
// arrow-go's array.SliceEqual, types included. A value that cannot be
// read, or in a tensor column whose tensor cannot (File.Tensor), is
// counted, not compared. Mismatches are test errors (the first 5 of a
// column in full); label names the file.
func compareValues(t *testing.T, label string, f *File, ref reference) (n tally) {
	t.Helper()
	fields := f.Fields()
	if len(fields) != len(ref.cols) {
		t.Fatalf("%s: %d columns, the reference %d", label, len(fields), len(ref.cols))
	}
	for c, arrs := range ref.cols {
		var row int64
		reported := 0
		for _, arr := range arrs {
			for i := 0; i < arr.Len(); i, row = i+1, row+1 {
				n.cells++
				v, err := f.Value(row, c)
				if err == nil && fields[c].Tensor != nil {
					if _, err = f.Tensor(row, c); errors.Is(err, tensorext.ErrNullTensor) {
						err = nil
					}
					if err == nil {
						n.tensors++
					}
				}
				if err != nil {
					n.errCells++
					continue
				}
				if !array.SliceEqual(v.Array, int64(v.Index), int64(v.Index+1), arr, int64(i), int64(i+1)) {
					if reported++; reported <= 5 {
						t.Errorf("%s column %q row %d: %s %s, the reference %s %s", label, fields[c].Name, row, v.Array.DataType(), v.Array.ValueStr(v.Index), arr.DataType(), arr.ValueStr(i))
					}
				}
			}
		}
		if rows, _ := f.Rows(); rows != row {
			t.Fatalf("%s: %d rows, the reference %d", label, rows, row)
		}
	}
	n.windows = int(f.windowReads.Load())
	return n
}

// openPQ opens data with a pqarrow source.
func openPQ(t *testing.T, name string, data []byte, opt Options) (*File, *pqSource, ParquetMeta) {
	t.Helper()
	src, meta := newPQSource(t, data)
	f, err := OpenParquet(name, int64(len(data)), meta, src, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	return f, src, meta
}

// TestParquetNonGoWriters: Parquet files written by arrow-rs (parquet-wasm)
// and R's arrow (parquet-cpp) show every value exactly as pqarrow reads
// it, and arrowrs_tensors.parquet's tensors as gen_nongo.mjs wrote them
// (testdata/nongo_expected.json).
func TestParquetNonGoWriters(t *testing.T) {
	paths := []string{"../../testdata/arrowrs_tensors.parquet",
		filepath.Join(interopDir, "generated-nonGo-writers/arrowrs_fixed_shape_tensor.parquet"),
		filepath.Join(interopDir, "arrow/r__tests__testthat__golden-files__data-arrow-extra-meta_3.0.0.parquet")}
	facts := map[string]ParquetFacts{
		"arrowrs_tensors.parquet":                                               {RowGroups: 1, CreatedBy: "parquet-rs version 59.3.0", Version: 1, Compression: "UNCOMPRESSED", CompressedBytes: 639, UncompressedBytes: 639},
		"arrowrs_fixed_shape_tensor.parquet":                                    {RowGroups: 1, CreatedBy: "parquet-rs version 59.3.0", Version: 1, Compression: "UNCOMPRESSED", CompressedBytes: 102, UncompressedBytes: 102},
		"r__tests__testthat__golden-files__data-arrow-extra-meta_3.0.0.parquet": {RowGroups: 1, CreatedBy: "parquet-cpp version 1.5.1-SNAPSHOT", Version: 1, Compression: "SNAPPY", CompressedBytes: 492, UncompressedBytes: 492},
	}
	tensors := 0
	for _, path := range paths {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, budget := range []int64{0, 64 << 10} { // the default budget, and a small one
				f, _, _ := openPQ(t, name, data, Options{Budget: budget})
				if f.Format != Parquet || f.NumBatches() != 1 || !f.Indexed() {
					t.Errorf("format %q, %d batches, indexed %v", f.Format, f.NumBatches(), f.Indexed())
				}
				n := compareValues(t, name, f, pqReference(t, data))
				if n.errCells > 0 {
					t.Errorf("%d cells show errors", n.errCells)
				}
				tensors += n.tensors
				got, ok := f.ParquetFacts()
				want := facts[name]
				got.KeyValue = nil
				if !ok || !equalFacts(got, want) {
					t.Errorf("facts %+v, want %+v", got, want)
				}
			}
		})
	}
	if tensors == 0 {
		t.Error("no tensor compared")
	}
}

func equalFacts(a, b ParquetFacts) bool {
	return a.RowGroups == b.RowGroups && a.CreatedBy == b.CreatedBy && a.Version == b.Version && a.Compression == b.Compression &&
		a.CompressedBytes == b.CompressedBytes && a.UncompressedBytes == b.UncompressedBytes && slices.Equal(a.KeyValue, b.KeyValue)
}

// TestParquetExpectedValues: arrowrs_tensors.parquet's tensors, physical
// shape and values, are those in nongo_expected.json, which
// testdata/gen_nongo.mjs wrote with the data it wrote; its non-tensor
// columns and schema metadata are what the script wrote too.
func TestParquetExpectedValues(t *testing.T) {
	raw, err := os.ReadFile("../../testdata/nongo_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Files map[string]struct {
			NumRows int64 `json:"num_rows"`
			Columns map[string]struct {
				Extension string `json:"extension"`
				Rows      []*struct {
					Shape  []int     `json:"shape"`
					Values []float64 `json:"values"`
				} `json:"rows"`
			} `json:"columns"`
		} `json:"files"`
	}
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	want := exp.Files["arrowrs_tensors.parquet"]
	data, err := os.ReadFile("../../testdata/arrowrs_tensors.parquet")
	if err != nil {
		t.Fatal(err)
	}
	f, _, _ := openPQ(t, "arrowrs_tensors.parquet", data, Options{})
	if rows, exact := f.Rows(); rows != want.NumRows || !exact {
		t.Fatalf("%d rows (exact %v), want %d", rows, exact, want.NumRows)
	}
	if !slices.Equal(f.Metadata, []KV{{"writer", "flechette 2.6.0"}}) {
		t.Errorf("schema metadata %v", f.Metadata)
	}
	checked := 0
	for c, fld := range f.Fields() {
		col, ok := want.Columns[fld.Name]
		if !ok {
			continue
		}
		if fld.Extension != col.Extension || fld.Tensor == nil || fld.Err != "" {
			t.Errorf("column %q: extension %q tensor %v err %q, want %q", fld.Name, fld.Extension, fld.Tensor, fld.Err, col.Extension)
		}
		for r, w := range col.Rows {
			tn, err := f.Tensor(int64(r), c)
			if w == nil {
				if !errors.Is(err, tensorext.ErrNullTensor) {
					t.Errorf("%s row %d: %v, want null", fld.Name, r, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s row %d: %v", fld.Name, r, err)
				continue
			}
			var got []float64
			tn.Positions(func(pos int) bool {
				v, _ := tn.Float64(pos)
				got = append(got, v)
				return true
			})
			if !slices.Equal(tn.Shape, w.Shape) || !slices.Equal(got, w.Values) {
				t.Errorf("%s row %d: shape %v values %v, want %v %v", fld.Name, r, tn.Shape, got, w.Shape, w.Values)
			}
			checked++
		}
	}
	if checked != 9 {
		t.Errorf("%d tensors checked, want 9", checked)
	}
	for r, want := range []string{"first", "second", "third"} {
		if got := valueText(f, int64(r), 1); got != want {
			t.Errorf("name row %d: %q, want %q", r, got, want)
		}
	}
}

// twinSource serves a Parquet file's rows from the Arrow IPC stream
// arrow-rs read it as (parquet-wasm: generated-nonGo-writers/
// arrowrs_from_parquet_*.arrows), one row group: what the page's source
// answers, for a file pqarrow cannot read.
type twinSource struct{ tbl arrow.Table }

func (s twinSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	return tableStream(s.tbl, offset, limit, columns, 2)
}
func (twinSource) Close() error { return nil }

// TestParquetArrowRsTwin: arrowrs_tensors_mixed.parquet (pqarrow fails on
// it: "expected all lists to be of size=2") shows, through a source that
// answers what arrow-rs read, every value arrow-go reads from that answer;
// through pqarrow, each cell shows pqarrow's error naming the row group.
func TestParquetArrowRsTwin(t *testing.T) {
	dir := filepath.Join(interopDir, "generated-nonGo-writers")
	data, err := os.ReadFile(filepath.Join(dir, "arrowrs_tensors_mixed.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	twin, err := os.ReadFile(filepath.Join(dir, "arrowrs_from_parquet_tensors_mixed.arrows"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ipc.NewReader(bytes.NewReader(twin))
	if err != nil {
		t.Fatal(err)
	}
	ref := reference{schema: r.Schema(), cols: make([][]arrow.Array, r.Schema().NumFields())}
	for r.Next() {
		for c := range ref.cols {
			ref.cols[c] = append(ref.cols[c], r.RecordBatch().Column(c))
		}
		r.RecordBatch().Retain()
	}
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	src, meta := newPQSource(t, data)
	f, err := OpenParquet("mixed", int64(len(data)), meta, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const want = "cannot read row group 0: expected all lists to be of size=2, but index 1 had size=0"
	for c := range f.Fields() {
		for r := range int64(3) {
			if _, err := f.Value(r, c); err == nil || err.Error() != want {
				t.Errorf("pqarrow: value (%d, %d): %v, want the error %q", r, c, err, want)
			}
		}
	}
	meta.Schema = schemaStream(t, ref.schema)
	cols := make([]arrow.Column, len(ref.cols))
	for c := range cols {
		cols[c] = *arrow.NewColumn(ref.schema.Field(c), arrow.NewChunked(ref.schema.Field(c).Type, ref.cols[c]))
	}
	g, err := OpenParquet("mixed", int64(len(data)), meta, twinSource{array.NewTable(ref.schema, cols, -1)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if n := compareValues(t, "mixed", g, ref); n.errCells > 0 || n.tensors != 6 {
		t.Errorf("%d error cells, %d tensors (want 0, 6)", n.errCells, n.tensors)
	}
}

// writeParquet writes tbl with pqarrow in row groups of rowGroup rows.
func writeParquet(t testing.TB, tbl arrow.Table, rowGroup int64, codec compress.Compression, storeSchema bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var aprops []pqarrow.WriterOption
	if storeSchema {
		aprops = append(aprops, pqarrow.WithStoreSchema())
	}
	if err := pqarrow.WriteTable(tbl, &buf, rowGroup, parquet.NewWriterProperties(parquet.WithCompression(codec)), pqarrow.NewArrowWriterProperties(aprops...)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sampleTable is 250 rows: id int64; name utf8 (every 7th null); img, a
// fixed_shape_tensor float32 [4,4] (its storage with the extension's field
// metadata: pqarrow cannot write the extension type itself); grid, a plain
// FixedSizeList<FixedSizeList<float32>[4]>[3]; vec, List<float32> of
// lengths 0..4 (every 5th null).
func sampleTable(t testing.TB) arrow.Table {
	t.Helper()
	const n = 250
	ft, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4, 4}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids, names, imgs, grids, vecs []string
	for r := range n {
		ids = append(ids, fmt.Sprint(r))
		if r%7 == 3 {
			names = append(names, "null")
		} else {
			names = append(names, fmt.Sprintf("%q", fmt.Sprintf("row %d <b>", r)))
		}
		var img, grid []string
		for k := range 16 {
			img = append(img, fmt.Sprint(float32(r)+float32(k)/16))
		}
		for y := range 3 {
			var line []string
			for x := range 4 {
				line = append(line, fmt.Sprint(r*100+y*10+x))
			}
			grid = append(grid, "["+strings.Join(line, ",")+"]")
		}
		imgs = append(imgs, "["+strings.Join(img, ",")+"]")
		grids = append(grids, "["+strings.Join(grid, ",")+"]")
		if r%5 == 2 {
			vecs = append(vecs, "null")
		} else {
			vecs = append(vecs, "["+strings.Join(strings.Fields(strings.Repeat("-1.5 ", r%5)), ",")+"]")
		}
	}
	extMeta := arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{ft.ExtensionName(), ft.Serialize()})
	fields := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "img", Type: ft.StorageType(), Metadata: extMeta},
		{Name: "grid", Type: arrow.FixedSizeListOf(3, arrow.FixedSizeListOf(4, arrow.PrimitiveTypes.Float32))},
		{Name: "vec", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true},
	}
	cols := make([]arrow.Array, len(fields))
	for k, rows := range [][]string{ids, names, imgs, grids, vecs} {
		arr, _, err := array.FromJSON(memory.DefaultAllocator, fields[k].Type, strings.NewReader("["+strings.Join(rows, ",")+"]"))
		if err != nil {
			t.Fatal(fields[k].Name, err)
		}
		cols[k] = arr
	}
	md := arrow.NewMetadata([]string{"note"}, []string{"written by TestParquet*"})
	schema := arrow.NewSchema(fields, &md)
	return array.NewTableFromSlice(schema, [][]arrow.Array{{cols[0]}, {cols[1]}, {cols[2]}, {cols[3]}, {cols[4]}})
}

// TestParquetRowGroupsAndWindows: a file of three row groups (100, 100, 50
// rows) read whole and, under a 16 KiB budget, by windows of 8 rows whose
// answers hold several record batches (joined), every cell equal to
// pqarrow's reading; with ARROW:schema the tensor column is a
// fixed_shape_tensor, without it the nested FixedSizeList comes back as
// List<List<float32>> and reads as [3,4] tensors all the same.
func TestParquetRowGroupsAndWindows(t *testing.T) {
	tbl := sampleTable(t)
	for _, tt := range []struct {
		name        string
		storeSchema bool
		codec       compress.Compression
		compression string
		dialects    []string // per column
		types       []string
	}{
		{"with ARROW:schema", true, compress.Codecs.Snappy, "SNAPPY",
			[]string{"", "", "", "nested FixedSizeList", "plain list"},
			[]string{"int64", "utf8", "fixed_size_list<element: float32, nullable>[16]", "fixed_size_list<element: fixed_size_list<element: float32, nullable>[4], nullable>[3]", "list<element: float32, nullable>"}},
		{"without ARROW:schema", false, compress.Codecs.Zstd, "ZSTD",
			[]string{"", "", "plain list", "nested lists", "plain list"},
			[]string{"int64", "utf8", "list<element: float32, nullable>", "list<element: list<element: float32, nullable>, nullable>", "list<element: float32, nullable>"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := writeParquet(t, tbl, 100, tt.codec, tt.storeSchema)
			ref := pqReference(t, data)
			for _, budget := range []int64{0, 16 << 10} {
				src, meta := newPQSource(t, data)
				src.batchRows = 3
				f, err := OpenParquet("sample.parquet", int64(len(data)), meta, src, Options{Budget: budget})
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if f.NumBatches() != 3 || !f.Indexed() {
					t.Fatalf("%d batches, indexed %v", f.NumBatches(), f.Indexed())
				}
				var progress [][2]int64
				if err := f.Index(context.Background(), func(done, total int64) { progress = append(progress, [2]int64{done, total}) }); err != nil {
					t.Fatal(err)
				}
				if size := int64(len(data)); !slices.Equal(progress, [][2]int64{{size, size}}) {
					t.Errorf("Index progress %v", progress)
				}
				for c, fld := range f.Fields() {
					if fld.Dialect != tt.dialects[c] || fld.Type != tt.types[c] || fld.Tensor == nil != (c < 2) {
						t.Errorf("column %q: dialect %q type %s tensor %v; want %q %s", fld.Name, fld.Dialect, fld.Type, fld.Tensor, tt.dialects[c], tt.types[c])
					}
				}
				if tt.storeSchema && f.Fields()[2].Extension != "arrow.fixed_shape_tensor" {
					t.Errorf("img: extension %q", f.Fields()[2].Extension)
				}
				n := compareValues(t, tt.name, f, ref)
				if n.errCells > 0 || n.tensors != 750 || n.cells != 1250 {
					t.Errorf("%d cells (%d tensors), %d errors; want 1250 (750), 0", n.cells, n.tensors, n.errCells)
				}
				b, w, ok := f.Window(120)
				rg := meta.RowGroups[1]
				if budget == 0 {
					if b != 1 || w != -1 || !ok || f.WindowBytes(120) != rg.CompressedBytes || n.windows != 0 || src.calls.Load() != 3 {
						t.Errorf("whole: window %d/%d %v, %d bytes (want %d), %d windows, %d reads", b, w, ok, f.WindowBytes(120), rg.CompressedBytes, n.windows, src.calls.Load())
					}
				} else {
					// 2 KiB windows (an eighth of the budget) of rows of
					// about 150 bytes: 8 rows, 13 windows per row group of 100.
					if b != 1 || w != 2 || !ok || f.WindowBytes(120) != rg.CompressedBytes/100*8 || n.windows < 13+13+7 {
						t.Errorf("windows: window %d/%d %v, %d bytes (want %d), %d windows", b, w, ok, f.WindowBytes(120), rg.CompressedBytes/100*8, n.windows)
					}
					if used, budget := f.CacheBytes(); used > budget {
						t.Errorf("cache holds %d bytes, budget %d", used, budget)
					}
				}
				facts, _ := f.ParquetFacts()
				if facts.RowGroups != 3 || facts.Compression != tt.compression || !strings.HasPrefix(facts.CreatedBy, "parquet-go version ") {
					t.Errorf("facts %+v", facts)
				}
				hasSchema := slices.ContainsFunc(facts.KeyValue, func(kv KV) bool { return kv.Key == "ARROW:schema" })
				if hasSchema {
					t.Errorf("facts hold ARROW:schema: %v", facts.KeyValue)
				}
			}
		})
	}
}

// TestParquetUnsupportedCodec: a column whose chunks the footer says are
// LZO shows that as its error and in its cells, is never asked of the
// source, and the other columns display.
func TestParquetUnsupportedCodec(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	ref := pqReference(t, data)
	src, meta := newPQSource(t, data)
	var leaf string
	for k, c := range meta.Columns {
		if c.Path[0] == "grid" {
			meta.Columns[k].Codecs = []string{"SNAPPY", "LZO"}
			leaf = strings.Join(c.Path, ".")
		}
	}
	f, err := OpenParquet("lzo.parquet", int64(len(data)), meta, src, Options{Budget: 16 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := `column "grid" (its leaf column ` + leaf + `) is compressed with LZO, which tensorview's Parquet readers (hyparquet, parquet-wasm) cannot decode`
	if !strings.HasPrefix(leaf, "grid.") || f.Fields()[3].Err != want {
		t.Errorf("grid: %q, want %q", f.Fields()[3].Err, want)
	}
	n := compareValues(t, "lzo", f, ref)
	if n.errCells != 250 {
		t.Errorf("%d error cells, want the 250 of grid", n.errCells)
	}
	for _, r := range []int64{0, 149, 249} {
		if _, err := f.Value(r, 3); err == nil || err.Error() != want {
			t.Errorf("grid row %d: %v", r, err)
		}
		if _, err := f.Tensor(r, 3); err == nil || err.Error() != want {
			t.Errorf("grid row %d: Tensor: %v", r, err)
		}
	}
	_, err = f.ReadColumns(context.Background(), 1, []int{2, 3})
	if ce := (*ColumnError)(nil); !errors.As(err, &ce) || ce.Column != 3 || ce.Err != want {
		t.Errorf("ReadColumns of grid: %v", err)
	}
	if rec, err := f.ReadColumns(context.Background(), 1, []int{2, 4}); err != nil || !array.Equal(storage(rec.Column(1)), ref.cols[4][1]) {
		t.Errorf("ReadColumns of img, vec: %v", err)
	}
	for _, cols := range src.asked {
		if !slices.Equal(cols, []int{0, 1, 2, 4}) && !slices.Equal(cols, []int{2, 4}) {
			t.Fatalf("the source was asked for columns %v", cols)
		}
	}
	if facts, _ := f.ParquetFacts(); facts.Compression != "LZO, SNAPPY" {
		t.Errorf("compression %q", facts.Compression)
	}
}

// hookSource wraps a source with a hook that may change each answer.
type hookSource struct {
	ParquetSource
	hook func(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error, bool)
}

func (s hookSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	if b, err, ok := s.hook(ctx, rowGroup, offset, limit, columns); ok {
		return b, err
	}
	return s.ParquetSource.ReadRows(ctx, rowGroup, offset, limit, columns)
}

// TestParquetBadAnswers: a row group the source cannot read, or whose
// answer has other rows, other columns, or is not Arrow IPC, shows that
// error in its rows, whole or by windows; the other row groups display.
func TestParquetBadAnswers(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	tests := []struct {
		name   string
		budget int64
		hook   func(src *pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool)
		want   string // row 150's error
	}{
		{"read fails", 0, func(*pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
			return func(_ context.Context, rg int, _, _ int64, _ []int) ([]byte, error, bool) {
				return nil, errors.New("page 3 of column img is corrupt"), rg == 1
			}
		}, "cannot read row group 1: page 3 of column img is corrupt"},
		{"a row short", 0, func(src *pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
			return func(ctx context.Context, rg int, off, n int64, cols []int) ([]byte, error, bool) {
				b, err := src.ReadRows(ctx, rg, off, n-1, cols)
				return b, err, rg == 1
			}
		}, "row group 1: the Parquet reader answered 99 rows, not 100"},
		{"a window a row long", 16 << 10, func(src *pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
			return func(ctx context.Context, rg int, off, n int64, cols []int) ([]byte, error, bool) {
				b, err := src.ReadRows(ctx, rg, off, n+1, cols)
				return b, err, rg == 1
			}
		}, "rows 48..56 of row group 1: the Parquet reader answered 9 rows, not 8"},
		{"other columns", 0, func(src *pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
			return func(ctx context.Context, rg int, off, n int64, cols []int) ([]byte, error, bool) {
				b, err := src.ReadRows(ctx, rg, off, n, []int{1, 0})
				return b, err, rg == 1
			}
		}, `row group 1: the Parquet reader answered columns {"name": utf8, "id": int64}, not the ones asked for {"id": int64, "name": utf8, "img": extension<arrow.fixed_shape_tensor[value_type=float32, shape=[4,4]]>, "grid": fixed_size_list<element: fixed_size_list<element: float32, nullable>[4], nullabl…, "vec": list<element: float32, nullable>}`},
		{"not IPC", 0, func(*pqSource) func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
			return func(_ context.Context, rg int, _, _ int64, _ []int) ([]byte, error, bool) {
				return []byte("<html>oops</html>"), nil, rg == 1
			}
		}, "row group 1: the Parquet reader's answer cannot be read: not an Arrow IPC file or stream (it starts with 3c 68 74 6d 6c 3e 6f 6f)"},
	}
	ref := pqReference(t, data)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, meta := newPQSource(t, data)
			f, err := OpenParquet("bad.parquet", int64(len(data)), meta, hookSource{src, tt.hook(src)}, Options{Budget: tt.budget})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for c := range f.Fields() {
				if _, err := f.Value(150, c); err == nil || err.Error() != tt.want {
					t.Errorf("row 150 column %d: %v\nwant the error %q", c, err, tt.want)
				}
			}
			if err := f.Load(150); err == nil || err.Error() != tt.want {
				t.Errorf("Load: %v", err)
			}
			if _, err := f.ReadColumns(context.Background(), 1, []int{0, 1}); err == nil || errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "row group 1") {
				t.Errorf("ReadColumns of row group 1: %v", err)
			}
			if rec, err := f.ReadColumns(context.Background(), 2, []int{0, 1}); err != nil || !array.Equal(rec.Column(1), ref.cols[1][2]) {
				t.Errorf("ReadColumns of row group 2: %v", err)
			}
			// Row groups 0 and 2 display, as pqarrow reads them.
			for _, r := range []int64{0, 99, 200, 249} {
				rg, local := r/100, int(r%100)
				for c := range 2 {
					if got, want := valueText(f, r, c), ref.cols[c][rg].ValueStr(local); got != want {
						t.Errorf("row %d column %d: %q, want %q", r, c, got, want)
					}
				}
				if tn, err := f.Tensor(r, 2); err != nil || !slices.Equal(tn.Shape, []int{4, 4}) {
					t.Errorf("row %d img: %v (%v)", r, tn.Shape, err)
				}
			}
		})
	}
}

// blockSource answers after release is closed, or with ctx's error when
// ctx is done first; started gets a value as each call starts.
type blockSource struct {
	*pqSource
	started chan struct{}
	release chan struct{}
}

func (s blockSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	s.started <- struct{}{}
	select {
	case <-s.release:
		return s.pqSource.ReadRows(ctx, rowGroup, offset, limit, columns)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestParquetCancel: a load through LoadContext shows in Reading while its
// row group (4 MiB compressed, the footer says: a big read) is read, stops with
// ErrCanceled when its context is cancelled, and is not held against the
// next load; so does a ReadColumns; Close closes the source and fails
// later loads.
func TestParquetCancel(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 1000, compress.Codecs.Snappy, true)
	src, meta := newPQSource(t, data)
	meta.RowGroups[0].CompressedBytes = 4 << 20
	bs := blockSource{src, make(chan struct{}, 4), make(chan struct{})}
	f, err := OpenParquet("block.parquet", int64(len(data)), meta, bs, Options{Budget: 256 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var loadErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		loadErr = f.LoadContext(ctx, 10)
	}()
	<-bs.started
	if done, total := f.Reading(); done != 0 || total != 4<<20 {
		t.Errorf("Reading = %d, %d; want 0, %d", done, total, 4<<20)
	}
	cancel()
	wg.Wait()
	if !errors.Is(loadErr, ErrCanceled) || loadErr.Error() != "row group 0: reading cancelled: context canceled" {
		t.Errorf("LoadContext: %v, want ErrCanceled", loadErr)
	}
	if done, total := f.Reading(); done != 0 || total != 0 {
		t.Errorf("Reading after = %d, %d", done, total)
	}
	ctx, cancel = context.WithCancel(context.Background())
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, loadErr = f.ReadColumns(ctx, 0, []int{0})
	}()
	<-bs.started
	cancel()
	wg.Wait()
	if !errors.Is(loadErr, ErrCanceled) || loadErr.Error() != `column "id" of row group 0: reading cancelled: context canceled` {
		t.Errorf("ReadColumns: %v, want ErrCanceled", loadErr)
	}
	close(bs.release)
	if err := f.Load(10); err != nil {
		t.Fatalf("Load after a cancelled load: %v", err)
	}
	if got := valueText(f, 10, 0); got != "10" {
		t.Errorf("row 10: %q", got)
	}
	f.Close()
	if !src.closed.Load() {
		t.Error("Close did not close the source")
	}
	if err := f.Load(20); err == nil || err.Error() != "cannot read row group 0: the file was closed" {
		t.Errorf("Load after Close: %v", err)
	}
}

// TestParquetBudget: an answer larger than the cache budget, or rows whose
// arrays would exceed it, is refused with ErrTooLarge and its rows show
// why; nothing is cached beyond the budget.
func TestParquetBudget(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	src, meta := newPQSource(t, data)
	huge := hookSource{src, func(context.Context, int, int64, int64, []int) ([]byte, error, bool) {
		return make([]byte, 2<<20), nil, true
	}}
	f, err := OpenParquet("budget.parquet", int64(len(data)), meta, huge, Options{Budget: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = f.Load(0)
	const want = "row group 0 needs more memory than the cache budget (1.0 MiB) allows: it declares 2.0 MiB; the file is "
	if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Load: %v, want ErrTooLarge %q…", err, want)
	}
	_, err = f.ReadColumns(context.Background(), 0, []int{0, 2})
	const wantCols = `columns "id", "img" of row group 0 needs more memory than the cache budget (1.0 MiB) allows: it declares 2.0 MiB; the file is `
	if !errors.Is(err, ErrTooLarge) || !strings.HasPrefix(err.Error(), wantCols) {
		t.Errorf("ReadColumns: %v, want ErrTooLarge %q…", err, wantCols)
	}
	// A budget of 1 KiB: a window of 8 rows (about 1.2 KiB of arrays) is
	// more than the budget lets one decode allocate.
	g, _, _ := openPQ(t, "budget.parquet", data, Options{Budget: 1 << 10})
	if err := g.Load(0); !errors.Is(err, ErrTooLarge) {
		t.Errorf("1 KiB budget: %v, want ErrTooLarge", err)
	}
	if got := valueText(g, 0, 0); !strings.Contains(got, "needs more memory than the cache budget (1.0 KiB)") {
		t.Errorf("row 0: %q", got)
	}
	if _, err := g.ReadColumns(context.Background(), 0, []int{2}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("1 KiB budget: ReadColumns: %v, want ErrTooLarge", err)
	}
}

// TestOpenParquetMeta: a footer that cannot be right is refused at open
// with what is wrong in it.
func TestOpenParquetMeta(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	src, good := newPQSource(t, data)
	for _, tt := range []struct {
		name string
		edit func(m *ParquetMeta)
		want string
	}{
		{"no schema", func(m *ParquetMeta) { m.Schema = nil }, "x.parquet: the Parquet reader gave no Arrow schema"},
		{"schema not IPC", func(m *ParquetMeta) { m.Schema = []byte("PAR1....") }, "x.parquet: cannot read its Arrow schema: the Arrow schema is a Parquet file: it opens with OpenParquet"},
		{"schema cut", func(m *ParquetMeta) { m.Schema = m.Schema[:40] }, "x.parquet: cannot read its Arrow schema: "},
		{"negative rows", func(m *ParquetMeta) { m.RowGroups[1].Rows = -1 }, "x.parquet: row group 1 declares -1 rows, "},
		{"too many rows", func(m *ParquetMeta) { m.RowGroups[0].Rows, m.RowGroups[1].Rows = 1<<52, 1<<52 }, "x.parquet: its row groups declare more than 9007199254740992 rows"},
		{"too many row groups", func(m *ParquetMeta) { m.RowGroups = make([]ParquetRowGroup, 5000) }, "x.parquet has 5000 row groups, more than the 1024 whose index fits the cache budget"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := good
			m.Schema = slices.Clone(good.Schema)
			m.RowGroups = slices.Clone(good.RowGroups)
			tt.edit(&m)
			f, err := OpenParquet("x.parquet", int64(len(data)), m, src, Options{Budget: 64 << 10})
			if err == nil {
				f.Close()
				t.Fatal("opened")
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("%v\nwant %q…", err, tt.want)
			}
		})
	}
	if _, err := OpenParquet("x.parquet", 1, good, nil, Options{}); err == nil || err.Error() != "x.parquet: no Parquet reader" {
		t.Errorf("nil source: %v", err)
	}
}

// TestParquetConcurrent: goroutines reading the cells of a windowed Parquet
// file at once see pqarrow's values, each window read once while cached
// (run with -race).
func TestParquetConcurrent(t *testing.T) {
	data := writeParquet(t, sampleTable(t), 100, compress.Codecs.Snappy, true)
	ref := pqReference(t, data)
	src, meta := newPQSource(t, data)
	src.batchRows = 5
	f, err := OpenParquet("concurrent.parquet", int64(len(data)), meta, src, Options{Budget: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range int64(250) {
				r := (k*7 + int64(g)*31) % 250
				if got, want := valueText(f, r, 0), ref.cols[0][r/100].ValueStr(int(r%100)); got != want {
					errs <- fmt.Sprintf("row %d: %q, want %q", r, got, want)
					return
				}
				if _, err := f.Tensor(r, 2); err != nil {
					errs <- fmt.Sprintf("row %d img: %v", r, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// 1 MiB budget: row groups (about 15 KiB decoded) are read whole, once.
	if n := src.calls.Load(); n != 3 {
		t.Errorf("%d reads of 3 row groups", n)
	}
}

// TestStatsInUnit: dates' and timestamps' bounds in a Parquet unit become
// the column's (Min down, Max up), and are dropped for other columns or
// when they would overflow.
func TestStatsInUnit(t *testing.T) {
	tz := func(u arrow.TimeUnit) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: "UTC"} }
	for _, c := range []struct {
		dt             arrow.DataType
		unit           string
		min, max       int64
		wantMin, wantM any
	}{
		{arrow.FixedWidthTypes.Date32, "d", -3, 7, int64(-3), int64(7)},
		{arrow.FixedWidthTypes.Date64, "d", -3, 7, int64(-3 * 86_400_000), int64(7 * 86_400_000)},
		{tz(arrow.Second), "ms", -1500, 1500, int64(-2), int64(2)},
		{tz(arrow.Second), "ms", -1000, 2000, int64(-1), int64(2)},
		{tz(arrow.Microsecond), "ms", -15, 15, int64(-15_000), int64(15_000)},
		{tz(arrow.Nanosecond), "us", 1, 2, int64(1_000), int64(2_000)},
		{tz(arrow.Millisecond), "ns", 1, 1_999_999, int64(0), int64(2)},
		{tz(arrow.Nanosecond), "d", 0, 200_000, nil, nil}, // past int64 nanoseconds
		{arrow.PrimitiveTypes.Int64, "ms", 1, 2, nil, nil},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.FixedWidthTypes.Date32}, "d", 1, 2, int64(1), int64(2)},
	} {
		s := ColumnStats{NullCount: 0, Min: c.min, Max: c.max, Unit: c.unit}
		statsInUnit(c.dt, &s)
		if s.Min != c.wantMin || s.Max != c.wantM || s.Unit != "" {
			t.Errorf("%s from %s [%d, %d]: [%v, %v] %q, want [%v, %v]", c.dt, c.unit, c.min, c.max, s.Min, s.Max, s.Unit, c.wantMin, c.wantM)
		}
	}
}
