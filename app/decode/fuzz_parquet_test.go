package decode

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/compress"

	"github.com/tensorview/tensorview/internal/testkit"
)

// fuzzSource answers every read with the same bytes, or an error.
type fuzzSource struct {
	answer []byte
	fail   bool
}

func (s fuzzSource) ReadRows(ctx context.Context, rowGroup int, offset, limit int64, columns []int) ([]byte, error) {
	if s.fail {
		return nil, errors.New("fuzz: this row group cannot be read")
	}
	return s.answer, nil
}

func (fuzzSource) Close() error { return nil }

// FuzzOpenParquet runs what the viewer does with a Parquet file on a
// footer and answers a hostile file could make a Parquet reader give:
// the Arrow schema's bytes, two row groups' row counts and sizes, a codec
// (mode&1: LZO for the first column), and the IPC stream every ReadRows
// answers (mode&2: an error instead). OpenParquet with a 1 MiB budget,
// Index, and the cells and tensors of the first and last rows (whole row
// groups and windows, by the sizes) must end in values or errors, never a
// panic, a recovered panic or an allocation beyond the budget. `go test`
// replays the seeds and testdata/fuzz/FuzzOpenParquet.
func FuzzOpenParquet(f *testing.F) {
	data := writeParquet(f, sampleTable(f), 100, compress.Codecs.Snappy, true)
	src, meta := newPQSource(f, data)
	tbl, err := src.table(context.Background(), 0)
	if err != nil {
		f.Fatal(err)
	}
	whole, err := tableStream(tbl, 0, 100, nil, 30)
	if err != nil {
		f.Fatal(err)
	}
	window, err := tableStream(tbl, 0, 8, nil, 3)
	if err != nil {
		f.Fatal(err)
	}
	rg := meta.RowGroups[0]
	f.Add(meta.Schema, whole, int64(100), int64(100), rg.CompressedBytes, rg.UncompressedBytes, uint8(0))
	f.Add(meta.Schema, window, int64(100), int64(50), int64(400<<10), int64(1<<20), uint8(0))
	f.Add(meta.Schema, whole, int64(100), int64(0), rg.CompressedBytes, rg.UncompressedBytes, uint8(1))
	f.Add(meta.Schema, whole, int64(100), int64(7), rg.CompressedBytes, rg.UncompressedBytes, uint8(2))
	rs, err := os.ReadFile("../../testdata/arrowrs_tensors.parquet")
	if err != nil {
		f.Fatal(err)
	}
	src, meta = newPQSource(f, rs)
	if tbl, err = src.table(context.Background(), 0); err != nil {
		f.Fatal(err)
	}
	three, err := tableStream(tbl, 0, 3, nil, 2)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(meta.Schema, three, int64(3), int64(3), int64(639), int64(639), uint8(0))
	f.Fuzz(func(t *testing.T, schema, answer []byte, rows0, rows1, compressed, uncompressed int64, mode uint8) {
		m := ParquetMeta{Schema: schema, CreatedBy: "fuzz", Version: 2,
			RowGroups: []ParquetRowGroup{{Rows: rows0, CompressedBytes: compressed, UncompressedBytes: uncompressed}, {Rows: rows1, CompressedBytes: compressed / 2, UncompressedBytes: uncompressed / 2}}}
		f, err := OpenParquet("fuzz.parquet", compressed, m, fuzzSource{answer, mode&2 != 0}, Options{Budget: 1 << 20})
		testkit.NoPanic(t, "open", err)
		if err != nil {
			return
		}
		defer f.Close()
		if len(f.Schema.Fields()) > 0 && mode&1 != 0 {
			m.Columns = []ParquetColumn{{Path: []string{f.Schema.Field(0).Name}, Codecs: []string{"LZO"}}}
			f.Close()
			if f, err = OpenParquet("fuzz.parquet", compressed, m, fuzzSource{answer, mode&2 != 0}, Options{Budget: 1 << 20}); err != nil {
				t.Fatalf("reopened with a LZO column: %v", err)
			}
			defer f.Close()
		}
		testkit.NoPanic(t, "index", f.Index(context.Background(), nil))
		rows, exact := f.Rows()
		if !exact || rows != rows0+rows1 || f.NumBatches() != 2 {
			t.Fatalf("%d rows (exact %v), %d batches; the footer says %d+%d in 2", rows, exact, f.NumBatches(), rows0, rows1)
		}
		for _, r := range []int64{0, 1, 9, rows0 - 1, rows0, rows0 + 8, rows - 1} {
			if r < 0 || r >= rows {
				continue
			}
			f.WindowBytes(r)
			f.WindowState(r)
			for c, fld := range f.Fields() {
				_, err := f.Value(r, c)
				testkit.NoPanic(t, "value", err)
				if fld.Tensor != nil {
					_, err := f.Tensor(r, c)
					testkit.NoPanic(t, "tensor", err)
				}
			}
		}
		if used, budget := f.CacheBytes(); used > budget {
			t.Fatalf("the cache holds %d bytes, over its budget of %d", used, budget)
		}
	})
}
