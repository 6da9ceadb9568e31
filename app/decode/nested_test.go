package decode

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/turtle"
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

// deepTurtle writes an IPC stream whose one column "t" nests record batches
// levels deep: each level's batch has one row whose "t" holds the next.
func deepTurtle(t *testing.T, levels int) []byte {
	t.Helper()
	mem := memory.DefaultAllocator
	leafSchema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	xb := array.NewInt32Builder(mem)
	xb.Append(42)
	xs := xb.NewArray()
	rec := array.NewRecordBatch(leafSchema, []arrow.Array{xs}, 1)
	xs.Release()
	schema := leafSchema
	for range levels {
		typ, err := turtle.NewType(schema)
		if err != nil {
			t.Fatal(err)
		}
		b := turtle.NewBuilder(mem, typ)
		if err := b.Append("level", rec); err != nil {
			t.Fatal(err)
		}
		col := b.NewTurtleArray()
		b.Release()
		rec.Release()
		schema = arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
		rec = array.NewRecordBatch(schema, []arrow.Array{col}, 1)
		col.Release()
	}
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return buf.Bytes()
}

// TestNestedDepthLimit: batches nested MaxNestedDepth levels below the file
// open; one more level is refused with a message that says so.
func TestNestedDepthLimit(t *testing.T) {
	f, err := Open("deep.arrows", deepTurtle(t, MaxNestedDepth+2))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cur := f
	for level := 1; level <= MaxNestedDepth; level++ {
		if c := cur.Cell(0, 0); c.Nested == nil || c.Nested.Label != "level" {
			t.Fatalf("level %d: cell %+v", level, c)
		}
		inner, err := cur.Nested(0, 0)
		if err != nil {
			t.Fatalf("level %d: %v", level, err)
		}
		defer inner.Close()
		if inner.Depth() != level {
			t.Errorf("depth %d, want %d", inner.Depth(), level)
		}
		cur = inner
	}
	want := "a nested record batch 9 levels deep: tensorview opens at most 8 levels"
	if _, err := cur.Nested(0, 0); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("level %d: %v, want %q", MaxNestedDepth+1, err, want)
	}
	if c := cur.Cell(0, 0); !strings.Contains(c.Err, want) {
		t.Errorf("level %d's cell: %+v", MaxNestedDepth+1, c)
	}
}
