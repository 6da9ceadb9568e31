package main

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/tensorview/tensorview/tensorext"
)

// readRow is a row of the query layout as read back.
type readRow struct {
	id    int64
	score float32
	label string
}

// TestQueryFiles writes the query layout's files of 70,000 rows (two
// record batches / row groups), reads them back with arrow-go, checks the
// types kept (a dictionary label, a fixed_shape_tensor emb) and the answers
// the benchmark checks the viewers against, and reuses them.
func TestQueryFiles(t *testing.T) {
	defer func(old string) { nodeModules = old }(nodeModules)
	nodeModules = filepath.Join("..", "..", "testdata", "node_modules")
	formats := []string{"arrow", "parquet"}
	if _, err := os.Stat(filepath.Join(nodeModules, "parquet-wasm")); err != nil {
		if os.Getenv("TENSORVIEW_FULL") != "" { // make test: nothing skips there
			t.Fatal(err)
		}
		t.Log("no testdata/node_modules (cd testdata && npm ci): the Arrow file only")
		formats = formats[:1]
	}
	dir := t.TempDir()
	const rows = 70_000
	for _, format := range formats {
		f, err := ensureQuery(queryPlan(dir, rows, format), t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		var got []readRow
		var schema *arrow.Schema
		read := func(rec arrow.RecordBatch) {
			schema = rec.Schema()
			ids := rec.Column(0).(*array.Int64)
			scores := rec.Column(1).(*array.Float32)
			labels := rec.Column(2).(*array.Dictionary)
			words := labels.Dictionary().(*array.String)
			for i := range int(rec.NumRows()) {
				got = append(got, readRow{ids.Value(i), scores.Value(i), words.Value(labels.GetValueIndex(i))})
			}
		}
		if format == "arrow" {
			in, err := os.Open(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ipc.NewFileReader(in)
			if err != nil {
				t.Fatal(err)
			}
			if r.NumRecords() != 2 {
				t.Errorf("%d record batches, want 2", r.NumRecords())
			}
			for b := range r.NumRecords() {
				rec, err := r.RecordBatch(b)
				if err != nil {
					t.Fatal(err)
				}
				read(rec)
			}
			r.Close()
			in.Close()
		} else {
			pf, err := file.OpenParquetFile(f.Path, false)
			if err != nil {
				t.Fatal(err)
			}
			if pf.NumRowGroups() != 2 {
				t.Errorf("%d row groups, want 2", pf.NumRowGroups())
			}
			fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 1 << 20}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			rr, err := fr.GetRecordReader(context.Background(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			for rr.Next() {
				read(rr.RecordBatch())
			}
			rr.Release()
			pf.Close()
		}
		if len(got) != rows {
			t.Fatalf("%s: %d rows, want %d", format, len(got), rows)
		}
		if _, ok := schema.Field(5).Type.(*tensorext.FixedShapeTensorType); !ok {
			t.Errorf("%s: emb is %s, want a fixed_shape_tensor", format, schema.Field(5).Type)
		}
		if ts, ok := schema.Field(4).Type.(*arrow.TimestampType); !ok || ts.Unit != arrow.Microsecond {
			t.Errorf("%s: ts is %s", format, schema.Field(4).Type)
		}
		for _, c := range []string{"id", "score", "label", "caption", "ts", "emb"} {
			if f.ColumnBytes[c] <= 0 {
				t.Errorf("%s: column %s has %d bytes", format, c, f.ColumnBytes[c])
			}
		}
		if format == "arrow" && f.ColumnBytes["score"] != 4*rows {
			t.Errorf("arrow: score has %d bytes, want %d", f.ColumnBytes["score"], 4*rows)
		}

		// The answers, from the rows read back.
		var matches []int64
		for _, r := range got {
			if r.label == "cat" && r.score > 0.9 {
				matches = append(matches, r.id)
			}
		}
		if int64(len(matches)) != f.Matches || !slices.Equal(matches[:min(qTopN, len(matches))], f.FirstMatches) {
			t.Errorf("%s: %d matches, first %v; the sidecar says %d, %v", format, len(matches), matches[:min(5, len(matches))], f.Matches, f.FirstMatches[:min(5, len(f.FirstMatches))])
		}
		if f.Matches < rows/400 {
			t.Errorf("%s: only %d matches of %d rows", format, f.Matches, rows)
		}
		byScore := slices.Clone(got)
		slices.SortFunc(byScore, func(a, b readRow) int { return cmp.Compare(b.score, a.score) })
		for k := 1; k < len(byScore); k++ {
			if byScore[k].score == byScore[k-1].score {
				t.Fatalf("%s: rows %d and %d have the same score", format, byScore[k].id, byScore[k-1].id)
			}
		}
		for k, id := range f.Top {
			if byScore[k].id != id {
				t.Fatalf("%s: position %d by score holds id %d, the sidecar says %d", format, k, byScore[k].id, id)
			}
		}

		again, err := ensureQuery(queryPlan(dir, rows, format), t.Logf)
		if err != nil || again.Bytes != f.Bytes || again.Matches != f.Matches {
			t.Errorf("%s: not reused: %+v, %v", format, again, err)
		}
	}
}

func TestParseRows(t *testing.T) {
	for in, want := range map[string]int{"10M": 10_000_000, "1m": 1_000_000, "500K": 500_000, "3000": 3000} {
		if got, err := parseRows(in); err != nil || got != want {
			t.Errorf("parseRows(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "0", "20M"} {
		if _, err := parseRows(in); err == nil {
			t.Errorf("parseRows(%q): no error", in)
		}
	}
}
