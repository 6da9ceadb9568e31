package decode

import (
	"errors"
	"fmt"
	"hash/crc32"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/app/turtle"
	"github.com/tensorview/tensorview/tensorext"
)

// valueText is what a test reads of the value in column col at row: its
// text (arrow-go's ValueStr, array.NullValueStr for a null), or the text
// of the error that stops it from being read.
func valueText(f *File, row int64, col int) string {
	v, err := f.Value(row, col)
	if err != nil {
		return err.Error()
	}
	return v.Array.ValueStr(v.Index)
}

// describeValue is every part of the value in column col at row that a
// test compares: its text (arrow-go's ValueStr, or what its panic says),
// and in a column of images the image's header, in a tensor column its
// tensor (Value.Tensor, checked); or the error that stops it from being
// read.
func describeValue(f *File, row int64, col int) string {
	return describe(f.Value(row, col))
}

// describe is describeValue of a Value.
func describe(v Value, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	s := func() (s string) {
		defer func() {
			if r := recover(); r != nil {
				s = fmt.Sprintf("ValueStr panicked: %v", r)
			}
		}()
		return fmt.Sprintf("%q", v.Array.ValueStr(v.Index))
	}()
	switch {
	case v.Field.Images:
		b, info, err := v.Encoded()
		s += fmt.Sprintf(" image %s of %d bytes (%v)", info, len(b), err)
	case v.Field.Tensor != nil:
		t, err := v.Tensor()
		if err == nil {
			err = t.Check()
		}
		s += " " + describeTensor(t, err)
	}
	return s
}

// describeTensor is every part of a tensor view (shapes, names, value
// type, a checksum of its values), or its error.
func describeTensor(t tensorext.Tensor, err error) string {
	if err != nil {
		return "tensor error " + err.Error()
	}
	return fmt.Sprintf("tensor %v %v %q %q %s %08x", t.Shape, t.LogicalShape(), t.DimNames, t.LogicalDimNames(), t.ValueType(), crc32.ChecksumIEEE([]byte(t.Logical().String())))
}

// TestValueKinds: Value gives each column's array and index, and reads a
// value as its column is read: tensors, encoded images, nested record
// batches; each method refuses a column of another kind.
func TestValueKinds(t *testing.T) {
	f := open(t, filepath.Join("..", "..", "testdata", "turtle_nested.arrow"))
	id, runs := column(t, f, "id"), column(t, f, "runs")
	v, err := f.Value(0, id)
	if err != nil || v.Array.ValueStr(v.Index) != "1" || v.Index != 0 || v.Field.Name != "id" || v.Field.Index != id {
		t.Fatalf("Value(0, id) = %s at %d %+v, %v", v.Array.ValueStr(v.Index), v.Index, v.Field, err)
	}
	if _, err := v.Tensor(); err == nil || err.Error() != `column "id" is not a tensor column` {
		t.Errorf("Tensor of an id: %v", err)
	}
	if b, _, err := v.Encoded(); b != nil || err != nil {
		t.Errorf("Encoded of an id: %d bytes, %v", len(b), err)
	}
	if _, err := v.Nested(); err == nil || !strings.Contains(err.Error(), "is not a column of nested record batches") {
		t.Errorf("Nested of an id: %v", err)
	}
	n, err := f.Value(0, runs)
	if err != nil {
		t.Fatal(err)
	}
	if ta, ok := n.Array.(*turtle.Array); !ok || !n.Field.Nested || ta.Label(n.Index) != "sunny" {
		t.Fatalf("runs: %T, field %+v", n.Array, n.Field)
	}
	inner, err := n.Nested()
	if err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	if inner.Depth() != 1 || inner.Name != "sunny" {
		t.Errorf("nested: depth %d, name %q", inner.Depth(), inner.Name)
	}
	img := column(t, inner, "image")
	tv, err := inner.Value(0, img)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tv.Tensor()
	want, werr := inner.Tensor(0, img)
	if err != nil || werr != nil || got.Check() != nil || !slices.Equal(values(t, got), values(t, want)) {
		t.Errorf("Value.Tensor %v (%v), File.Tensor %v (%v)", got.Shape, err, want.Shape, werr)
	}
	if _, err := f.Value(0, 99); err == nil || err.Error() != "no column 99" {
		t.Errorf("Value(0, 99): %v", err)
	}
	if _, err := f.Value(1<<40, id); err == nil || !strings.Contains(err.Error(), "no row") {
		t.Errorf("a row past the end: %v", err)
	}
	if _, err := f.Tensor(0, 99); err == nil || err.Error() != "no column 99" {
		t.Errorf("Tensor(0, 99): %v", err)
	}
	null, err := f.Value(1, runs)
	if err != nil || !null.Array.IsNull(null.Index) {
		t.Fatalf("Value(1, runs): null %v, %v", null.Array.IsNull(null.Index), err)
	}
	if _, err := null.Tensor(); err == nil || errors.Is(err, tensorext.ErrNullTensor) {
		t.Errorf("Tensor of a null nested batch: %v, want not a tensor column", err)
	}
	if _, err := null.Nested(); !errors.Is(err, turtle.ErrNull) {
		t.Errorf("Nested of a null: %v, want turtle.ErrNull", err)
	}
}
