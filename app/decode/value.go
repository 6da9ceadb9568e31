package decode

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/app/turtle"
	"github.com/tensorview/tensorview/tensorext"
)

// Value is one value of a File: element Index of Array, its column in the
// row window (a record batch, or a window of its rows) that holds it. It
// stays valid once the window leaves the cache. Its methods read it as its
// column is read: as a tensor (Tensor), an encoded image (Encoded) or a
// nested record batch (Nested); anything else is Array's own.
type Value struct {
	Array arrow.Array // the column in the row window: read-only
	Index int         // the value's index in Array
	// Field describes the value's column as the file was opened (its Err
	// is the column's own; File.Fields adds what later reads found):
	// read-only.
	Field *FieldInfo

	f       *File
	read    tensorReader                          // the column's tensor reader, or nil
	bytesOf func(arrow.Array, int) ([]byte, bool) // the column's image bytes (imageColumn), or nil
}

// Value returns the value in column col at global row, reading its row
// window when it is not cached (see Load). The error says why there is
// none: no column col, a row window that cannot be read (Load's errors), or
// a column that arrow-go's validation found broken in that window (its
// FieldInfo.Err in Fields). It never panics.
func (f *File) Value(row int64, col int) (v Value, err error) {
	defer guard(&err, "reading row %d", row)
	return f.value(row, col)
}

// value is Value without the guard, for the entry points that have one.
func (f *File) value(row int64, col int) (Value, error) {
	if f.set != nil {
		return f.set.value(row, col)
	}
	if col < 0 || col >= len(f.fields) {
		return Value{}, fmt.Errorf("no column %d", col)
	}
	d, i, err := f.rowData(context.Background(), row)
	if err != nil {
		return Value{}, err
	}
	if col >= len(d.colErr) {
		return Value{}, fmt.Errorf("no column %d in this record batch", col)
	}
	if e := d.colErr[col]; e != "" {
		return Value{}, errors.New(e)
	}
	return f.ValueIn(col, d.rec.Column(col), i)
}

// Tensor reads the value as a tensor view in physical order, as its column
// is read as tensors (FieldInfo.Tensor: a canonical tensor type or a
// dialect; FieldInfo.Images: the image decoded by imagebytes.Decode). The
// view is not checked: t.Check says whether it can be walked (one read
// from a valid array can; File.Tensor checks it). It returns
// tensorext.ErrNullTensor for a null value, and an error for a column not
// read as tensors or a value that is not a tensor of its column's type. It
// never panics.
func (v Value) Tensor() (t tensorext.Tensor, err error) {
	defer guard(&err, "reading the tensor")
	if v.read == nil {
		return t, fmt.Errorf("column %q is not a tensor column", v.Field.Name)
	}
	return v.read(v.Array, v.Index)
}

// Encoded returns the bytes of the encoded image (PNG, JPEG, GIF or WebP,
// told by their magic numbers) that the value holds in a column of images
// (FieldInfo.Images), and what the image's header says. The bytes are nil,
// with no error, for a null value, one whose bytes are not an encoded image
// (it shows as its text), or a column of another kind; the error is set for
// an image whose header does not parse or that is past
// imagebytes.DefaultLimits (nothing is decoded). The bytes share the
// record batch's buffer: read-only. It never panics.
func (v Value) Encoded() (b []byte, info imagebytes.Info, err error) {
	defer guard(&err, "reading the image")
	if v.bytesOf == nil {
		return nil, info, nil
	}
	if b, ok := v.bytesOf(v.Array, v.Index); ok {
		return encodedImage(b)
	}
	return nil, info, nil
}

// Nested opens the value, a nested record batch (arrow.turtle; FieldInfo.
// Nested), as a File one level below the value's: see File.Nested. The
// caller closes it. It never panics.
func (v Value) Nested() (inner *File, err error) {
	defer guard(&err, "opening the nested record batch")
	if !v.Field.Nested {
		return nil, fmt.Errorf("column %d is not a column of nested record batches", v.Field.Index)
	}
	ta, ok := v.Array.(*turtle.Array)
	if !ok {
		return nil, fmt.Errorf("column %q is not an arrow.turtle column", v.Field.Name)
	}
	return v.f.openNested(ta, v.Index)
}

// Tensor returns the view of the tensor in column col at global row,
// checked (tensorext.Tensor.Check). It returns tensorext.ErrNullTensor for
// a null row and an error for a column that is not a (valid) tensor
// column; it never panics.
func (f *File) Tensor(row int64, col int) (t tensorext.Tensor, err error) {
	defer guard(&err, "reading the tensor")
	if col < 0 || col >= len(f.fields) {
		return t, fmt.Errorf("no column %d", col)
	}
	if f.tensors[col] == nil {
		return t, fmt.Errorf("column %q is not a tensor column", f.fields[col].Name)
	}
	if f.set != nil {
		return f.set.tensor(row, col)
	}
	v, err := f.value(row, col)
	if err != nil {
		return t, err
	}
	if t, err = v.read(v.Array, v.Index); err != nil {
		return t, err
	}
	return t, t.Check()
}

// tensorArray is a canonical tensor extension array.
type tensorArray interface {
	arrow.Array
	Tensor(i int) (tensorext.Tensor, error)
}
