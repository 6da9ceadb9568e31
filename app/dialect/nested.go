package dialect

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/tensorview/tensorview/tensorext"
)

// Plain nested FixedSizeList columns: Polars Array(dtype, shape), DuckDB
// ARRAY and pyarrow's pa.list_(t, n) nested (shared/NOTES.md section 6;
// the interop files generated-nonGo-writers/polars_fsl_*.arrow were written
// by nodejs-polars 0.26.1 as a plain FixedSizeList<float32>[4]). There is no
// extension type: the nesting is the physical shape, outer size first, and
// the innermost child holds the values in row-major order. A single
// FixedSizeList<numeric>[d] is a 1-D tensor of shape [d] (an embedding).

// maxNDim bounds the number of dimensions any dialect accepts (NumPy's
// limit is 64).
const maxNDim = 64

// maxElems bounds a shape's element count, and the product of its nonzero
// dimensions, so that row-major strides never overflow.
const maxElems = 1 << 62

type nestedAdapter struct{}

func init() { Register(nestedAdapter{}) }

func (nestedAdapter) Name() string  { return "nested" }
func (nestedAdapter) Priority() int { return 100 }

// Match recognises a field without an extension name whose type is
// FixedSizeList nested one or more levels (at most maxNDim) around a
// numeric value type (tensorext.IsNumeric's types).
func (nestedAdapter) Match(in Input) (*Column, error) {
	if in.Extension != "" {
		return nil, nil
	}
	shape, vt, ok := fslShape(in.Field.Type)
	if !ok {
		return nil, nil
	}
	if len(shape) > maxNDim {
		return nil, fmt.Errorf("nested FixedSizeList: %d levels of nesting, more than the %d dimensions tensorview reads", len(shape), maxNDim)
	}
	if err := checkShape(shape); err != nil {
		return nil, fmt.Errorf("nested FixedSizeList: %v", err)
	}
	c := &Column{
		Dialect:   "nested FixedSizeList",
		ValueType: vt,
		Shape:     shape,
		NDim:      len(shape),
	}
	if len(shape) == 1 {
		c.Why = fmt.Sprintf("plain %s, no extension type: each row is a vector of %d (an embedding)", typeString(in.Field.Type), shape[0])
	} else {
		c.Why = fmt.Sprintf("plain %s, no extension type: the nesting is the shape %s, outer size first", typeString(in.Field.Type), tensorext.FormatShape(shape))
	}
	c.Tensor = nestedRowTensor(shape)
	return c, nil
}

// fslShape returns the sizes of the FixedSizeList levels of dt, outer
// first, and the innermost value type; ok is false unless dt is a
// FixedSizeList whose innermost non-list type is numeric.
func fslShape(dt arrow.DataType) (shape []int, vt arrow.DataType, ok bool) {
	for {
		f, isFSL := dt.(*arrow.FixedSizeListType)
		if !isFSL {
			break
		}
		shape = append(shape, int(f.Len()))
		dt = f.Elem()
	}
	if len(shape) == 0 || !isNumericType(dt) {
		return nil, nil, false
	}
	return shape, dt, true
}

// isNumericType reports whether arrays of dt are ones tensorext.IsNumeric
// accepts: integers, float16/32/64 and boolean, and extension types that
// name the float type holding their values (tensorext.FloatType: Lance's
// bfloat16, whose vectors Lance stores as plain FixedSizeLists).
func isNumericType(dt arrow.DataType) bool {
	if dt == nil {
		return false
	}
	if f, ok := dt.(tensorext.FloatType); ok {
		return f.Float() != nil
	}
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16, arrow.INT32, arrow.UINT32,
		arrow.INT64, arrow.UINT64, arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.BOOL:
		_, isExt := dt.(arrow.ExtensionType)
		return !isExt
	}
	return false
}

// ListElem returns the element type of a List, LargeList or FixedSizeList
// type; ok is false for any other type (an extension type included).
func ListElem(dt arrow.DataType) (elem arrow.DataType, ok bool) { return isListType(dt) }

// isListType reports whether dt is List, LargeList or FixedSizeList, and
// returns its element type.
func isListType(dt arrow.DataType) (elem arrow.DataType, ok bool) {
	switch t := dt.(type) {
	case *arrow.ListType:
		return t.Elem(), true
	case *arrow.LargeListType:
		return t.Elem(), true
	case *arrow.FixedSizeListType:
		return t.Elem(), true
	}
	return nil, false
}

// storageOf returns the storage array of an extension array, else arr.
func storageOf(arr arrow.Array) arrow.Array {
	if e, ok := arr.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return arr
}

// storageType returns the storage type of an extension type, else dt.
func storageType(dt arrow.DataType) arrow.DataType {
	if e, ok := dt.(arrow.ExtensionType); ok {
		return e.StorageType()
	}
	return dt
}

// checkShape reports a shape with more than maxNDim dimensions, a negative
// dimension, or one whose nonzero dimensions multiply beyond maxElems.
func checkShape(shape []int) error {
	if len(shape) > maxNDim {
		return fmt.Errorf("shape %s has %d dimensions, more than %d", tensorext.FormatShape(shape), len(shape), maxNDim)
	}
	p := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("shape %s has a negative dimension", tensorext.FormatShape(shape))
		}
		if d > 0 {
			if p > maxElems/d {
				return fmt.Errorf("shape %s has too many elements", tensorext.FormatShape(shape))
			}
			p *= d
		}
	}
	return nil
}

// nestedRow descends len(want) list levels (List, LargeList or
// FixedSizeList, in any mix) from row i of arr, a row at a time. want[k] is
// the length every list at depth k must have, or -1 when any length is
// accepted as long as all lists at that depth agree (depth 0 is the row
// itself). It returns the innermost child array, the row's range [start,
// end) in it and the length found at each depth (want[k] when no list is
// at depth k, or 0 when want[k] is -1 too).
//
// It returns an error wrapping tensorext.ErrNullTensor for a null row, and
// a "row i: …" error for an inner null list, lists of unequal or unexpected
// length, a level that is not a list, or offsets outside the child (a
// malformed file); it never panics.
func nestedRow(arr arrow.Array, i int, want []int) (values arrow.Array, start, end int, dims []int, err error) {
	if i < 0 || i >= arr.Len() {
		return nil, 0, 0, nil, fmt.Errorf("row %d out of range [0, %d)", i, arr.Len())
	}
	if arr.IsNull(i) {
		return nil, 0, 0, nil, fmt.Errorf("row %d: %w", i, tensorext.ErrNullTensor)
	}
	dims = make([]int, len(want))
	cur, s, e := arr, i, i+1
	for k, w := range want {
		child, cs, ce, d, err := listLevel(cur, s, e, w, k)
		if err != nil {
			return nil, 0, 0, nil, fmt.Errorf("row %d: %w", i, err)
		}
		dims[k] = d
		cur, s, e = child, cs, ce
	}
	return cur, s, e, dims, nil
}

// listLevel returns the child of the list-like array a and the range
// [cs, ce) in it of the lists at positions [s, e) of a, after checking that
// none of them (except the row itself, depth 0, checked by the caller) is
// null and that all have length want (or, want < 0, the same length, d).
func listLevel(a arrow.Array, s, e, want, depth int) (child arrow.Array, cs, ce, d int, err error) {
	where := func() string {
		if depth == 0 {
			return "the row"
		}
		return fmt.Sprintf("a list at depth %d", depth)
	}
	if depth > 0 && a.NullN() > 0 {
		for j := s; j < e; j++ {
			if a.IsNull(j) {
				return nil, 0, 0, 0, fmt.Errorf("an inner list at depth %d (position %d of the row's lists there) is null, so the row cannot be read as a tensor", depth, j-s)
			}
		}
	}
	off := a.Data().Offset()
	switch l := a.(type) {
	case *array.FixedSizeList:
		n := int(l.DataType().(*arrow.FixedSizeListType).Len())
		if want >= 0 && n != want {
			return nil, 0, 0, 0, fmt.Errorf("%s has %d elements, the shape needs %d", where(), n, want)
		}
		child = l.ListValues()
		cs, ce = (off+s)*n, (off+e)*n
		if cs < 0 || ce < cs || ce > child.Len() {
			return nil, 0, 0, 0, fmt.Errorf("%s reaches past its %d values (malformed file)", where(), child.Len())
		}
		return child, cs, ce, n, nil
	case *array.List:
		return varLevel(l.ListValues(), l.Offsets(), off, s, e, want, where)
	case *array.LargeList:
		return varLevel(l.ListValues(), l.Offsets(), off, s, e, want, where)
	}
	return nil, 0, 0, 0, fmt.Errorf("depth %d is %s, not a list", depth, a.DataType())
}

func varLevel[T int32 | int64](child arrow.Array, offsets []T, off, s, e, want int, where func() string) (arrow.Array, int, int, int, error) {
	d := want
	if s == e {
		return child, 0, 0, max(d, 0), nil
	}
	if off+e >= len(offsets) || off+s < 0 {
		return nil, 0, 0, 0, fmt.Errorf("%s has no offsets (malformed file)", where())
	}
	cs, ce := int(offsets[off+s]), int(offsets[off+e])
	if cs < 0 || ce < cs || ce > child.Len() {
		return nil, 0, 0, 0, fmt.Errorf("%s has offsets [%d, %d) outside its %d values (malformed file)", where(), cs, ce, child.Len())
	}
	for j := off + s; j < off+e; j++ {
		n := int(offsets[j+1] - offsets[j])
		if d < 0 {
			d = n
		}
		if n != d {
			if want < 0 {
				return nil, 0, 0, 0, fmt.Errorf("%s has %d elements where the one before had %d: the row is ragged", where(), n, d)
			}
			return nil, 0, 0, 0, fmt.Errorf("%s has %d elements, the shape needs %d", where(), n, d)
		}
	}
	return child, cs, ce, d, nil
}

// typeString names a nested type compactly, for Why texts:
// "FixedSizeList<FixedSizeList<float32>[3]>[2]", "LargeList<int64>".
func typeString(dt arrow.DataType) string {
	switch t := dt.(type) {
	case *arrow.ListType:
		return "List<" + typeString(t.Elem()) + ">"
	case *arrow.LargeListType:
		return "LargeList<" + typeString(t.Elem()) + ">"
	case *arrow.FixedSizeListType:
		return fmt.Sprintf("FixedSizeList<%s>[%d]", typeString(t.Elem()), t.Len())
	case *arrow.StructType:
		parts := make([]string, len(t.Fields()))
		for k, f := range t.Fields() {
			parts[k] = f.Name + ": " + typeString(f.Type)
		}
		return "Struct<" + strings.Join(parts, ", ") + ">"
	}
	if dt == nil {
		return "null"
	}
	return dt.String()
}

// nestedRowTensor returns a Column.Tensor reading row i of a column of
// nested lists (want as for nestedRow) as the row-major tensor of the
// lengths found; errors are nestedRow's and RowMajor's.
func nestedRowTensor(want []int) func(arrow.Array, int) (tensorext.Tensor, error) {
	return func(arr arrow.Array, i int) (tensorext.Tensor, error) {
		values, start, end, dims, err := nestedRow(storageOf(arr), i, want)
		if err != nil {
			return tensorext.Tensor{}, err
		}
		return rowTensor(i, values, start, end, dims)
	}
}
