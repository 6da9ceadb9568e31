package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/tensorview/tensorview/tensorext"
)

// TestGenerateParquet writes a small Parquet file of the benchmark's rows
// with parquet-wasm (Node.js) and reads it back with arrow-go's pqarrow:
// its row groups, the extension type restored from ARROW:schema, ZSTD, a
// page index, and the pixels of each row group's first and last rows.
func TestGenerateParquet(t *testing.T) {
	defer func(old string) { nodeModules = old }(nodeModules)
	nodeModules = filepath.Join("..", "..", "testdata", "node_modules")
	if _, err := os.Stat(filepath.Join(nodeModules, "parquet-wasm")); err != nil {
		if os.Getenv("TENSORVIEW_FULL") != "" { // make test: nothing skips there
			t.Fatal(err)
		}
		t.Skip("needs testdata/node_modules (cd testdata && npm ci)")
	}
	f, err := plan(t.TempDir(), "15M", layoutParquet)
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows != 104 || f.Batches != 2 {
		t.Fatalf("15M: %d rows in %d row groups, want 104 in 2", f.Rows, f.Batches)
	}
	if f, err = ensure(f, t.Logf); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(f.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pf, err := file.NewParquetReader(in)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var groups []int64
	for g := 0; g < pf.NumRowGroups(); g++ {
		rg := pf.RowGroup(g).MetaData()
		groups = append(groups, rg.NumRows())
		cc, err := rg.ColumnChunk(1) // image.list.item
		if err != nil {
			t.Fatal(err)
		}
		if cc.Compression() != compress.Codecs.Zstd || cc.GetOffsetIndexLocation() == nil || cc.GetColumnIndexLocation() == nil {
			t.Errorf("row group %d %s: %s, offset index %v, column index %v", g, cc.PathInSchema(), cc.Compression(), cc.GetOffsetIndexLocation(), cc.GetColumnIndexLocation())
		}
	}
	if !slices.Equal(groups, []int64{100, 4}) {
		t.Errorf("row groups %v, want [100 4]", groups)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1024}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	for g, n := range groups {
		tbl, err := fr.ReadRowGroups(context.Background(), []int{0, 1, 2, 3}, []int{g})
		if err != nil {
			t.Fatal(err)
		}
		if tbl.NumRows() != n || len(tbl.Column(1).Data().Chunks()) != 1 {
			t.Fatalf("row group %d: %d rows in %d chunks", g, tbl.NumRows(), len(tbl.Column(1).Data().Chunks()))
		}
		arr, ok := tbl.Column(1).Data().Chunk(0).(*tensorext.FixedShapeTensorArray)
		if !ok {
			t.Fatalf("image column is %s", tbl.Column(1).DataType())
		}
		if typ := arr.TensorType(); !slices.Equal(typ.Shape(), []int{imgH, imgW, imgC}) || !slices.Equal(typ.DimNames(), []string{"H", "W", "C"}) {
			t.Errorf("image type %s", typ)
		}
		ids := tbl.Column(0).Data().Chunk(0).(*array.Int64)
		for _, i := range []int{0, int(n) - 1} {
			if ids.Value(i) != int64(first+i) {
				t.Errorf("row group %d row %d: id %d", g, i, ids.Value(i))
			}
			tn, err := arr.Tensor(i)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]uint8, tensorBytes)
			fillImages(want, first+i, 1)
			if got := tn.Values.(*array.Uint8).Uint8Values()[tn.Offset : tn.Offset+tensorBytes]; string(got) != string(want) {
				t.Errorf("row %d: pixels differ", first+i)
			}
		}
		tbl.Release()
		first += int(n)
	}
	if _, ok := existing(f); !ok {
		t.Error("the file written is not reused")
	}
}
