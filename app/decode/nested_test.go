package decode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// turtleBatch is a nested batch of testdata/turtle_expected.json.
type turtleBatch struct {
	NumRows int64 `json:"num_rows"`
	Image   []*struct {
		Shape  []int
		Values []float64
	}
	Exposure []float64
	Sub      []*turtleValue
	K        []float64
	V        []float64
}

type turtleValue struct {
	Label, Form, Error string
	Batch              *turtleBatch
}

// TestNestedRecordBatches: every row of the arrow.turtle fixture (written
// by apache-arrow JS) shows its label and the inner batch's rows and
// columns, or its error; opening a value gives a File whose tensors and
// nested batches (a second level) equal the generator's values.
func TestNestedRecordBatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "turtle_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Rows []struct {
			ID   int
			Runs *turtleValue
		}
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	f := open(t, filepath.Join("..", "..", "testdata", "turtle_nested.arrow"))
	col := column(t, f, "runs")
	if fld := f.Fields()[col]; !fld.Nested || fld.Tensor != nil || fld.Err != "" {
		t.Fatalf("runs: %+v", fld)
	}
	for r, w := range want.Rows {
		row := int64(r)
		c := f.Cell(row, col)
		switch {
		case w.Runs == nil:
			if !c.Null {
				t.Errorf("row %d: %+v, want null", r, c)
			}
			continue
		case w.Runs.Error != "":
			if c.Err == "" {
				t.Errorf("row %d (%s): %+v, want its error (%s)", r, w.Runs.Label, c, w.Runs.Error)
			}
			continue
		}
		if c.Nested == nil || c.Nested.Label != w.Runs.Label || c.Nested.Rows != w.Runs.Batch.NumRows || c.Nested.Columns != 3 {
			t.Errorf("row %d: %+v %+v, want %q with %d rows and 3 columns", r, c, c.Nested, w.Runs.Label, w.Runs.Batch.NumRows)
			continue
		}
		inner, err := f.Nested(row, col)
		if err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
		checkInnerBatch(t, inner, w.Runs.Batch)
		inner.Close()
	}
	if _, err := f.Nested(0, column(t, f, "id")); err == nil {
		t.Error("Nested on the id column: no error")
	}
}

func checkInnerBatch(t *testing.T, inner *File, w *turtleBatch) {
	t.Helper()
	if rows, _ := inner.Rows(); rows != w.NumRows {
		t.Fatalf("%s: %d rows, want %d", inner.Name, rows, w.NumRows)
	}
	img, sub := column(t, inner, "image"), column(t, inner, "sub")
	for r := range w.NumRows {
		tn, err := inner.Tensor(r, img)
		if err != nil {
			t.Fatalf("%s row %d image: %v", inner.Name, r, err)
		}
		if !reflect.DeepEqual(tn.Shape, w.Image[r].Shape) || !reflect.DeepEqual(values(t, tn), w.Image[r].Values) {
			t.Errorf("%s row %d image: %v %v, want %v %v", inner.Name, r, tn.Shape, values(t, tn), w.Image[r].Shape, w.Image[r].Values)
		}
		if got := inner.Cell(r, column(t, inner, "exposure")).Text; got != formatFloat(w.Exposure[r]) {
			t.Errorf("%s row %d exposure %s, want %v", inner.Name, r, got, w.Exposure[r])
		}
		sw := w.Sub[r]
		c := inner.Cell(r, sub)
		if inner.Depth() != 1 {
			t.Errorf("%s: depth %d, want 1", inner.Name, inner.Depth())
		}
		switch {
		case sw == nil:
			if !c.Null {
				t.Errorf("%s row %d sub: %+v, want null", inner.Name, r, c)
			}
		case sw.Error != "":
			if c.Err == "" {
				t.Errorf("%s row %d sub: %+v, want an error", inner.Name, r, c)
			}
		default:
			leaf, err := inner.Nested(r, sub)
			if err != nil {
				t.Fatalf("%s row %d sub: %v", inner.Name, r, err)
			}
			if leaf.Depth() != 2 || c.Nested == nil || c.Nested.Label != sw.Label {
				t.Errorf("%s row %d sub: depth %d, cell %+v", inner.Name, r, leaf.Depth(), c.Nested)
			}
			for lr := range sw.Batch.NumRows {
				k, v := leaf.Cell(lr, column(t, leaf, "k")).Text, leaf.Cell(lr, column(t, leaf, "v")).Text
				if k != formatFloat(sw.Batch.K[lr]) || v != formatFloat(sw.Batch.V[lr]) {
					t.Errorf("%s > %s row %d: k %s v %s, want %v %v", inner.Name, leaf.Name, lr, k, v, sw.Batch.K[lr], sw.Batch.V[lr])
				}
			}
			leaf.Close()
		}
	}
}

// formatFloat is arrow-go's text of the fixture's float32 and integer
// values.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 32) }
