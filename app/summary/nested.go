package summary

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/turtle"
)

// checkNestedBytes is the largest nested record batch a cell's summary
// decodes to check it against its declared schema; larger ones are checked
// when opened.
const checkNestedBytes = 1 << 20

// Nested summarises a nested record batch: a value of an arrow.turtle
// column (turtle.Array; the arrow.turtle proposal: a label and one record
// batch in the IPC stream format, of the schema the column declares).
type Nested struct {
	Label   string
	Rows    int64 // the inner batch's rows
	Columns int   // the declared schema's fields
	Bytes   int   // the value's size in bytes (its IPC stream)
}

// nestedCell opens v, the nested record batch in row v.Index of the turtle
// column ta, to summarise it; a value whose bytes do not hold one record
// batch of the declared schema is the cell's error.
func nestedCell(v decode.Value, ta *turtle.Array) Cell {
	i := v.Index
	if ta.IsNull(i) {
		return Cell{Null: true, Text: array.NullValueStr}
	}
	inner, err := v.Nested()
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
	return Cell{Nested: &Nested{Label: ta.Label(i), Rows: rows, Columns: inner.Schema.NumFields(), Bytes: len(ta.Value(i))}}
}
