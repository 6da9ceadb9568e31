package decode

import (
	"bytes"
	"fmt"

	"github.com/tensorview/tensorview/app/turtle"
)

// MaxNestedDepth is how many levels of nested record batches (arrow.turtle
// values inside arrow.turtle values) the viewer opens below a file.
const MaxNestedDepth = 8

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
	if f.set != nil {
		return f.set.nested(row, col)
	}
	if col < 0 || col >= len(f.fields) || !f.fields[col].Nested {
		return nil, fmt.Errorf("column %d is not a column of nested record batches", col)
	}
	v, err := f.value(row, col)
	if err != nil {
		return nil, err
	}
	return v.Nested()
}

// Depth is how many nested record batches f is below the file the viewer
// opened (0 for that file).
func (f *File) Depth() int { return f.depth }
