package decode

import (
	"bytes"
	"encoding/json"
	"errors"
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
// by apache-arrow JS) opens (Nested) as a File of the inner batch's rows and
// columns whose tensors and nested batches (a second level) equal the
// generator's values; or it is null (turtle.ErrNull), or its error shows
// when opened or read.
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
		inner, err := openInner(f, row, col)
		switch {
		case w.Runs == nil:
			if !errors.Is(err, turtle.ErrNull) {
				t.Errorf("row %d: %v, want turtle.ErrNull", r, err)
			}
			continue
		case w.Runs.Error != "":
			if err == nil {
				t.Errorf("row %d (%s): opens and reads, want its error (%s)", r, w.Runs.Label, w.Runs.Error)
			}
			continue
		case err != nil:
			t.Fatalf("row %d: %v", r, err)
		}
		if label := nestedLabel(t, f, row, col); label != w.Runs.Label || inner.Schema.NumFields() != 3 {
			t.Errorf("row %d: %q with %d columns, want %q with 3", r, label, inner.Schema.NumFields(), w.Runs.Label)
		}
		checkInnerBatch(t, inner, w.Runs.Batch)
		inner.Close()
	}
	if _, err := f.Nested(0, column(t, f, "id")); err == nil {
		t.Error("Nested on the id column: no error")
	}
}

// openInner opens the nested record batch in column col at row and reads
// its first rows, as a cell that shows it does.
func openInner(f *File, row int64, col int) (*File, error) {
	inner, err := f.Nested(row, col)
	if err != nil {
		return nil, err
	}
	if err := inner.Load(0); err != nil {
		inner.Close()
		return nil, err
	}
	return inner, nil
}

// nestedLabel is the label of the nested record batch in column col at row.
func nestedLabel(t *testing.T, f *File, row int64, col int) string {
	t.Helper()
	v, err := f.Value(row, col)
	if err != nil {
		t.Fatalf("row %d: %v", row, err)
	}
	return v.Array.(*turtle.Array).Label(v.Index)
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
		if got := valueText(inner, r, column(t, inner, "exposure")); got != formatFloat(w.Exposure[r]) {
			t.Errorf("%s row %d exposure %s, want %v", inner.Name, r, got, w.Exposure[r])
		}
		sw := w.Sub[r]
		leaf, err := openInner(inner, r, sub)
		if inner.Depth() != 1 {
			t.Errorf("%s: depth %d, want 1", inner.Name, inner.Depth())
		}
		switch {
		case sw == nil:
			if !errors.Is(err, turtle.ErrNull) {
				t.Errorf("%s row %d sub: %v, want turtle.ErrNull", inner.Name, r, err)
			}
		case sw.Error != "":
			if err == nil {
				t.Errorf("%s row %d sub: opens and reads, want an error", inner.Name, r)
			}
		default:
			if err != nil {
				t.Fatalf("%s row %d sub: %v", inner.Name, r, err)
			}
			if label := nestedLabel(t, inner, r, sub); leaf.Depth() != 2 || label != sw.Label {
				t.Errorf("%s row %d sub: depth %d, label %q, want 2, %q", inner.Name, r, leaf.Depth(), label, sw.Label)
			}
			for lr := range sw.Batch.NumRows {
				k, v := valueText(leaf, lr, column(t, leaf, "k")), valueText(leaf, lr, column(t, leaf, "v"))
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
// open; one more level is refused with a message that says so (the cell
// of that value shows it: package summary).
func TestNestedDepthLimit(t *testing.T) {
	f, err := Open("deep.arrows", deepTurtle(t, MaxNestedDepth+2))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cur := f
	for level := 1; level <= MaxNestedDepth; level++ {
		if label := nestedLabel(t, cur, 0, 0); label != "level" {
			t.Fatalf("level %d: label %q", level, label)
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
	v, err := cur.Value(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Nested(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("level %d's Value.Nested: %v, want %q", MaxNestedDepth+1, err, want)
	}
}
