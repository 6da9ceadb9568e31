package summary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// nestedExpected is what testdata/turtle_expected.json says of the cells
// of turtle_nested.arrow's "runs" column and of their inner "sub" column.
type nestedExpected struct {
	Rows []struct {
		Runs *struct {
			Label, Error string
			Batch        *struct {
				NumRows int64 `json:"num_rows"`
				Sub     []*struct{ Label, Error string }
			}
		}
	}
}

// TestNestedCells: every cell of the arrow.turtle fixture's "runs" column
// (written by apache-arrow JS) shows its label and the inner batch's rows
// and columns, or null, or its error; so do the cells of the second level
// ("sub") of the batches that open.
func TestNestedCells(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "turtle_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want nestedExpected
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	f := testFile(t, "turtle_nested.arrow")
	runs := f.Schema.FieldIndices("runs")[0]
	for r, w := range want.Rows {
		c := At(f, int64(r), runs)
		switch {
		case w.Runs == nil:
			if c != (Cell{Null: true, Text: "(null)"}) {
				t.Errorf("row %d: %+v, want null", r, c)
			}
			continue
		case w.Runs.Error != "":
			if c.Err == "" || c.Nested != nil {
				t.Errorf("row %d (%s): %+v, want its error (%s)", r, w.Runs.Label, c, w.Runs.Error)
			}
			continue
		}
		if n := c.Nested; n == nil || n.Label != w.Runs.Label || n.Rows != w.Runs.Batch.NumRows || n.Columns != 3 || n.Bytes <= 0 {
			t.Errorf("row %d: %+v %+v, want %q with %d rows and 3 columns", r, c, c.Nested, w.Runs.Label, w.Runs.Batch.NumRows)
			continue
		}
		inner, err := f.Nested(int64(r), runs)
		if err != nil {
			t.Fatalf("row %d: %v", r, err)
		}
		sub := inner.Schema.FieldIndices("sub")[0]
		for ir, sw := range w.Runs.Batch.Sub {
			c := At(inner, int64(ir), sub)
			switch {
			case sw == nil && !c.Null:
				t.Errorf("row %d > %d: %+v, want null", r, ir, c)
			case sw != nil && (c.Nested == nil || c.Nested.Label != sw.Label || c.Nested.Columns != 2):
				t.Errorf("row %d > %d: %+v %+v, want %q with 2 columns", r, ir, c, c.Nested, sw.Label)
			}
		}
		inner.Close()
	}
}
