package decode

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/turtle"
)

// MaxNestedDepth is how many levels of nested record batches (arrow.turtle
// values inside arrow.turtle values) the viewer opens below a file.
const MaxNestedDepth = 8

// checkNestedBytes is the largest nested record batch a cell's summary
// decodes to check it against its declared schema; larger ones are checked
// when opened.
const checkNestedBytes = 1 << 20

// NestedCell summarises a nested record batch: a value of an arrow.turtle
// column (turtle.Array; the arrow.turtle proposal: a label and
// one record batch in the IPC stream format, of the schema the column
// declares).
type NestedCell struct {
	Label   string
	Rows    int64 // the inner batch's rows
	Columns int   // the declared schema's fields
	Bytes   int   // the value's size
}

// nestedCell opens the nested record batch of row i of a turtle column to
// summarise it; a value whose bytes do not hold one record batch of the
// declared schema is the row's error.
func (f *File) nestedCell(ta *turtle.Array, i int) Cell {
	if ta.IsNull(i) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	inner, err := f.openNested(ta, i)
	if errors.Is(err, turtle.ErrNull) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	if err != nil {
		return Cell{Err: err.Error()}
	}
	defer inner.Close()
	if len(ta.Value(i)) <= checkNestedBytes {
		if err := inner.Load(0); err != nil {
			return Cell{Err: fmt.Sprintf("the nested record batch of row %d: %v", i, err)}
		}
	}
	rows, _ := inner.Rows()
	return Cell{Nested: &NestedCell{Label: ta.Label(i), Rows: rows, Columns: len(inner.fields), Bytes: len(ta.Value(i))}}
}

// openNested opens row i's nested record batch as a File one level below
// f, named by its label.
func (f *File) openNested(ta *turtle.Array, i int) (*File, error) {
	if f.depth >= MaxNestedDepth {
		return nil, fmt.Errorf("a nested record batch %d levels deep: tensorview opens at most %d levels", f.depth+1, MaxNestedDepth)
	}
	stream, err := ta.Stream(i)
	if err != nil {
		return nil, err
	}
	name := ta.Label(i)
	if name == "" {
		name = fmt.Sprintf("row %d", i)
	}
	inner, err := OpenReader(name, bytes.NewReader(stream), int64(len(stream)), Options{Budget: f.budget})
	if err != nil {
		return nil, err
	}
	inner.depth = f.depth + 1
	return inner, nil
}

// Nested opens the nested record batch (an arrow.turtle value) in column
// col at global row as a File of its own, one level deeper than f (Depth),
// which the viewer shows like any file. It returns turtle.ErrNull
// for a null value, and an error for a column that is not an arrow.turtle
// column, a value that is not one record batch of the declared schema, or
// one more than MaxNestedDepth levels deep. The caller closes the File.
func (f *File) Nested(row int64, col int) (inner *File, err error) {
	defer guard(&err, "opening the nested record batch")
	if col < 0 || col >= len(f.fields) || !f.fields[col].Nested {
		return nil, fmt.Errorf("column %d is not a column of nested record batches", col)
	}
	ch, i, err := f.rowData(context.Background(), row)
	if err != nil {
		return nil, err
	}
	if e := ch.colErr[col]; e != "" {
		return nil, errors.New(e)
	}
	ta, ok := ch.rec.Column(col).(*turtle.Array)
	if !ok {
		return nil, fmt.Errorf("column %q is not an arrow.turtle column", f.fields[col].Name)
	}
	return f.openNested(ta, i)
}

// Depth is how many nested record batches f is below the file the viewer
// opened (0 for that file).
func (f *File) Depth() int { return f.depth }
