package summary

// "A value shown is a value checked": every cell the viewer shows for a file
// of the interop corpus is compared with an independent reading of the same
// data: arrow-go's own IPC readers (TestInteropValuesMatchArrowGo), and the
// Arrow integration JSON twins of the arrow-testing gold files
// (TestGoldFilesMatchJSONTwins). A cell either shows exactly that value or
// an error; never another value.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// interopErrors lists the interop files on which the viewer is expected to
// show errors (in cells, columns, or by refusing the file), with why. Every
// other file must show every value. A listed file that shows no error fails
// the test, so that the list stays true. (Parquet files are opened with
// decode.OpenParquet: see app/decode/parquet_test.go.)
var interopErrors = map[string]string{
	"arrow-testing/data__arrow-ipc-stream__integration__1.0.0-littleendian__generated_nested_large_offsets.arrow_file": raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__1.0.0-littleendian__generated_nested_large_offsets.stream":     raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__1.0.0-littleendian__generated_recursive_nested.arrow_file":     raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__1.0.0-littleendian__generated_recursive_nested.stream":         raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__cpp-21.0.0__generated_nested_large_offsets.arrow_file":         raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__cpp-21.0.0__generated_nested_large_offsets.stream":             raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__cpp-21.0.0__generated_recursive_nested.arrow_file":             raggedLists,
	"arrow-testing/data__arrow-ipc-stream__integration__cpp-21.0.0__generated_recursive_nested.stream":                 raggedLists,
}

// raggedLists: plain List<List<int16>> columns read as tensors by the
// nested lists rule, whose ragged rows (and rows with a null inner list)
// show their error; compareFile checks that only those do.
const raggedLists = "ragged rows of plain nested lists"

// legacyCompressed are Arrow 0.17 Feather files whose compression is
// announced only in custom metadata. arrow-go reads their compressed bytes
// as values, so its reading is no reference: their values come from the
// file named here (the uncompressed twin R wrote beside them), or, when
// empty, from the table pyarrow's test_feather.py expects ({"a": 0..4}).
// They were expected to decode exactly once legacy compression was
// supported (fc0caf3 added it); their values are asserted like any file's.
var legacyCompressed = map[string]string{
	"arrow/r__tests__testthat__golden-files__data-arrow_0.17.0_lz4.feather":                  "arrow/r__tests__testthat__golden-files__data-arrow_0.17.0_uncompressed.feather",
	"arrow/r__tests__testthat__golden-files__data-arrow_0.17.0_zstd.feather":                 "arrow/r__tests__testthat__golden-files__data-arrow_0.17.0_uncompressed.feather",
	"arrow/python__pyarrow__tests__data__feather__v0.17.0.version.2-compression.lz4.feather": "",
}

// reference is an independent reading of a file: its schema and, for each
// column, its arrays (one per record batch).
type reference struct {
	schema *arrow.Schema
	cols   [][]arrow.Array
}

func (r reference) rows() int64 {
	var n int64
	if len(r.cols) > 0 {
		for _, a := range r.cols[0] {
			n += int64(a.Len())
		}
	}
	return n
}

// readWithArrowGo reads every record batch of an IPC file or stream with
// arrow-go's own readers, whole, from memory.
func readWithArrowGo(data []byte) (ref reference, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("arrow-go panicked: %v", r)
		}
	}()
	var recs []arrow.RecordBatch
	if len(data) >= 6 && string(data[:6]) == "ARROW1" {
		r, err := ipc.NewFileReader(bytes.NewReader(data))
		if err != nil {
			return ref, err
		}
		ref.schema = r.Schema()
		for i := 0; i < r.NumRecords(); i++ {
			rec, err := r.RecordBatchAt(i)
			if err != nil {
				return ref, err
			}
			rec.Retain()
			recs = append(recs, rec)
		}
	} else {
		r, err := ipc.NewReader(bytes.NewReader(data))
		if err != nil {
			return ref, err
		}
		ref.schema = r.Schema()
		for r.Next() {
			rec := r.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
		}
		if err := r.Err(); err != nil && !errors.Is(err, io.EOF) {
			return ref, err
		}
	}
	ref.cols = make([][]arrow.Array, ref.schema.NumFields())
	for _, rec := range recs {
		for c := range ref.cols {
			ref.cols[c] = append(ref.cols[c], rec.Column(c))
		}
	}
	return ref, nil
}

// openLazily opens data as the viewer opens a large file: with a small
// cache budget (batches over 16 KiB are read by row windows, others are
// evicted and read again) and no eager indexing, then indexes it.
func openLazily(name string, data []byte) (*decode.File, error) {
	f, err := decode.OpenReader(name, bytes.NewReader(data), int64(len(data)), decode.Options{Budget: 16 << 10, SmallFile: -1})
	if err != nil {
		return nil, err
	}
	if err := f.Index(context.Background(), nil); err != nil {
		f.Close()
		return nil, fmt.Errorf("index: %w", err)
	}
	return f, nil
}

// interopDir is the interop corpus, beside the repository.
var interopDir = testkit.InteropDir()

// tally counts what a comparison covered (windows: the row windows of
// batches read by windows that the cells compared lie in).
type tally struct {
	files, cells, errCells, tensors, elements, windows int
	mismatches                                         []string
}

func (t *tally) add(o tally) {
	t.files += o.files
	t.cells += o.cells
	t.errCells += o.errCells
	t.tensors += o.tensors
	t.elements += o.elements
	t.windows += o.windows
	t.mismatches = append(t.mismatches, o.mismatches...)
}

// maxReports is how many mismatches of one column are reported in full.
const maxReports = 5

// compareFile compares every cell f shows with ref. A cell showing an
// error (Cell.Err) is counted, not compared; any other cell must show
// exactly the reference's value, even in a column whose FieldInfo.Err is set
// (the caller decides whether errors are expected). Mismatches are test
// errors, the first maxReports of a column in full; label names the file.
func compareFile(t *testing.T, label string, f *decode.File, ref reference) (n tally) {
	t.Helper()
	n.files = 1
	windows := map[[2]int]bool{} // the row windows (of batches read by windows) compared
	rows, exact := f.Rows()
	if !exact {
		t.Errorf("row count %d not exact after Index", rows)
	}
	if rows != ref.rows() {
		t.Fatalf("the viewer counts %d rows, the reference %d", rows, ref.rows())
	}
	if len(f.Fields()) != len(ref.cols) {
		t.Fatalf("the viewer shows %d columns, the reference has %d", len(f.Fields()), len(ref.cols))
	}
	for c := range ref.cols {
		if got, want := f.Fields()[c].Name, ref.schema.Field(c).Name; got != want {
			t.Errorf("column %d is named %q, in the reference %q", c, got, want)
		}
		reported := 0
		mismatch := func(row int64, format string, args ...any) {
			msg := fmt.Sprintf("%s column %q row %d: %s", label, f.Fields()[c].Name, row, fmt.Sprintf(format, args...))
			n.mismatches = append(n.mismatches, msg)
			if reported++; reported <= maxReports {
				t.Error(msg)
			}
		}
		var row int64
		for _, arr := range ref.cols[c] {
			for i := 0; i < arr.Len(); i, row = i+1, row+1 {
				n.cells++
				got := At(f, row, c)
				if b, w, ok := f.Window(row); ok && w >= 0 {
					windows[[2]int{b, w}] = true
				}
				if got.Err != "" {
					n.errCells++
					if f.Fields()[c].Tensor != nil && nestedList(arr.DataType()) {
						// Rows of plain nested lists show an error only when
						// ragged (or with an inner null list).
						if _, _, _, _, ragged := nestedListTensor(arr, i); !ragged {
							mismatch(row, "shows the error %q, but the reference row is a rectangular nest of lists", got.Err)
						}
					}
					continue
				}
				if f.Fields()[c].Tensor != nil {
					n.tensors++
					n.elements += compareTensor(f, row, c, got, arr, i, mismatch)
					continue
				}
				text, null := referenceText(arr, i)
				if got.Text != text || got.Null != null {
					mismatch(row, "shows %q (null %v), the reference %q (null %v)", got.Text, got.Null, text, null)
				}
			}
		}
		if reported > maxReports {
			t.Errorf("%s column %q: %d mismatches in all", label, f.Fields()[c].Name, reported)
		}
	}
	n.windows = len(windows)
	return n
}

// referenceText is what a plain cell must show for value i of arr:
// arrow-go's ValueStr, cut as the viewer cuts (Truncate, MaxTextLen), or
// null.
func referenceText(arr arrow.Array, i int) (text string, null bool) {
	if arr.IsNull(i) {
		return array.NullValueStr, true
	}
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprintf("<arrow-go's ValueStr panicked: %v>", r)
		}
	}()
	return Truncate(arr.ValueStr(i), MaxTextLen), false
}

// compareTensor compares the tensor cell got (row of column c) and the
// viewer's view of it with row i of arr, a tensor extension array read
// independently: the storage's own values, element by element, the
// physical shape, the logical shape and dimension names (the type's
// permutation applied here), the inline values and the value range. It
// returns how many elements it compared.
func compareTensor(f *decode.File, row int64, c int, got Cell, arr arrow.Array, i int, mismatch func(int64, string, ...any)) int {
	var (
		vals  arrow.Array
		start int
		shape []int
		null  bool
		err   error
	)
	ext, isExt := arr.(array.ExtensionArray)
	switch {
	case isExt:
		vals, start, shape, null, err = storageTensor(ext, i)
	case nestedList(arr.DataType()):
		// Plain nested lists, which the nested lists rule reads as tensors.
		var ragged bool
		if vals, start, shape, null, ragged = nestedListTensor(arr, i); ragged {
			mismatch(row, "shows a tensor, but the reference row is ragged")
			return 0
		}
	case plainList(arr.DataType()):
		// A plain list column, which a dialect adapter reads as tensors.
		vals, start, shape, null = listTensor(arr, i)
	default:
		mismatch(row, "a tensor cell, but the reference column is %s", arr.DataType())
		return 0
	}
	if err != nil {
		mismatch(row, "shows a tensor, but its storage is not one: %v", err)
		return 0
	}
	if got.Null != null {
		mismatch(row, "null %v, the reference %v", got.Null, null)
		return 0
	}
	if null {
		if _, err := f.Tensor(row, c); !errors.Is(err, tensorext.ErrNullTensor) {
			mismatch(row, "a null cell, but Tensor returns %v", err)
		}
		return 0
	}
	if got.Tensor == nil {
		mismatch(row, "shows text %q, not a tensor", got.Text)
		return 0
	}
	var perm []int
	var names []string
	switch typ := arr.DataType().(type) {
	case *tensorext.FixedShapeTensorType:
		perm, names = typ.Permutation(), typ.DimNames()
	case *tensorext.VariableShapeTensorType:
		perm, names = typ.Permutation(), typ.DimNames()
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	tc := got.Tensor
	logical := permuted(shape, perm)
	if !slices.Equal(tc.Shape, shape) || !slices.Equal(tc.LogicalShape, logical) || tc.Len != size {
		mismatch(row, "shape %v (logical %v, %d values), the reference %v (logical %v, %d values)", tc.Shape, tc.LogicalShape, tc.Len, shape, logical, size)
		return 0
	}
	if !slices.Equal(tc.DimNames, names) || (names != nil && !slices.Equal(tc.LogicalDimNames, permuted(names, perm))) {
		mismatch(row, "dim names %v (logical %v), the reference %v (permutation %v)", tc.DimNames, tc.LogicalDimNames, names, perm)
	}
	if tc.ValueType != vals.DataType().String() {
		mismatch(row, "value type %s, the reference %s", tc.ValueType, vals.DataType())
	}
	if size <= InlineValues {
		if want := nestedValues(vals, start, shape, perm); tc.Values != want {
			mismatch(row, "values %s, the reference %s", tc.Values, want)
		}
	}
	if lo, hi := valueRange(vals, start, size); tc.Min != lo || tc.Max != hi {
		mismatch(row, "range %s..%s, the reference %s..%s", tc.Min, tc.Max, lo, hi)
	}
	// The view the viewer draws from, element by element in physical
	// row-major order.
	tv, err := f.Tensor(row, c)
	if err != nil {
		mismatch(row, "a tensor cell, but Tensor returns %v", err)
		return 0
	}
	if !slices.Equal(tv.Shape, shape) || !slices.Equal(tv.Permutation, perm) {
		mismatch(row, "the view has shape %v and permutation %v, the reference %v and %v", tv.Shape, tv.Permutation, shape, perm)
		return 0
	}
	k, bad := 0, 0
	tv.Positions(func(pos int) bool {
		g, w := tv.Values.ValueStr(pos), vals.ValueStr(start+k)
		if g != w || tv.Values.IsNull(pos) != vals.IsNull(start+k) {
			if bad++; bad == 1 {
				mismatch(row, "element %d is %s, the reference %s", k, g, w)
			}
		}
		k++
		return true
	})
	if k != size {
		mismatch(row, "the view has %d elements, the reference %d", k, size)
	}
	return k
}

// storageTensor returns, for row i of a tensor extension array, the flat
// values, where the row's values start in them and its physical shape, read
// from the storage (FixedSizeList for fixed_shape_tensor, Struct{data,
// shape} for variable_shape_tensor) without tensorext's views.
// plainList reports whether dt is a List or LargeList of numbers, or a
// nest of FixedSizeLists around numbers: the layouts the viewer reads as
// tensors without an extension type.
func plainList(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.ListType:
		return arrow.IsInteger(t.Elem().ID()) || arrow.IsFloating(t.Elem().ID()) || t.Elem().ID() == arrow.BOOL
	case *arrow.LargeListType:
		return arrow.IsInteger(t.Elem().ID()) || arrow.IsFloating(t.Elem().ID()) || t.Elem().ID() == arrow.BOOL
	case *arrow.FixedSizeListType:
		e := t.Elem()
		if _, ok := e.(*arrow.FixedSizeListType); ok {
			return plainList(e)
		}
		return arrow.IsInteger(e.ID()) || arrow.IsFloating(e.ID()) || e.ID() == arrow.BOOL
	}
	return false
}

// nestedList reports whether dt is a List or LargeList of lists (List,
// LargeList, FixedSizeList) nested around numbers.
func nestedList(dt arrow.DataType) bool {
	levels := 0
	for {
		var elem arrow.DataType
		switch t := dt.(type) {
		case *arrow.ListType:
			elem = t.Elem()
		case *arrow.LargeListType:
			elem = t.Elem()
		case *arrow.FixedSizeListType:
			if levels == 0 {
				return false
			}
			elem = t.Elem()
		default:
			id := dt.ID()
			return levels >= 2 && (arrow.IsInteger(id) || arrow.IsFloating(id) || id == arrow.BOOL)
		}
		dt = elem
		levels++
	}
}

// nestedListTensor reads row i of a nestedList column level by level with
// arrow-go's arrays: at each depth the lists of the row there, their
// length (an empty level: 0, or a FixedSizeList's size) and the range of
// their values in the child. ragged is set when lists at one depth differ
// in length or one below the row is null.
func nestedListTensor(arr arrow.Array, i int) (vals arrow.Array, start int, shape []int, null, ragged bool) {
	if arr.IsNull(i) {
		return nil, 0, nil, true, false
	}
	level, s, e := arr, i, i+1
	for depth := 0; ; depth++ {
		ll, ok := level.(array.ListLike)
		if !ok {
			return level, s, shape, false, false
		}
		n := -1
		if fsl, ok := ll.(*array.FixedSizeList); ok && s == e {
			n = int(fsl.DataType().(*arrow.FixedSizeListType).Len())
		}
		cs, ce := 0, 0
		for j := s; j < e; j++ {
			if depth > 0 && ll.IsNull(j) {
				return nil, 0, nil, false, true
			}
			a, b := ll.ValueOffsets(j)
			if j == s {
				cs = int(a)
			}
			ce = int(b)
			if n >= 0 && int(b-a) != n {
				return nil, 0, nil, false, true
			}
			n = int(b - a)
		}
		shape = append(shape, max(n, 0))
		level, s, e = ll.ListValues(), cs, ce
	}
}

// listTensor reads row i of a plain list column as arrow-go's arrays give
// it: a List row is one dimension of its length; a nest of FixedSizeLists
// has the nest's sizes as its shape, its values where the innermost list's
// offsets say.
func listTensor(arr arrow.Array, i int) (vals arrow.Array, start int, shape []int, null bool) {
	if arr.IsNull(i) {
		return nil, 0, nil, true
	}
	switch a := arr.(type) {
	case *array.List:
		s, e := a.ValueOffsets(i)
		return a.ListValues(), int(s), []int{int(e - s)}, false
	case *array.LargeList:
		s, e := a.ValueOffsets(i)
		return a.ListValues(), int(s), []int{int(e - s)}, false
	}
	level := arr.(*array.FixedSizeList)
	pos := i
	for {
		size := int(level.DataType().(*arrow.FixedSizeListType).Len())
		shape = append(shape, size)
		s, _ := level.ValueOffsets(pos)
		inner, ok := level.ListValues().(*array.FixedSizeList)
		if !ok {
			return level.ListValues(), int(s), shape, false
		}
		level, pos = inner, int(s)
	}
}

func storageTensor(ext array.ExtensionArray, i int) (vals arrow.Array, start int, shape []int, null bool, err error) {
	switch typ := ext.DataType().(type) {
	case *tensorext.FixedShapeTensorType:
		fsl, ok := ext.Storage().(*array.FixedSizeList)
		if !ok {
			return nil, 0, nil, false, fmt.Errorf("storage %s", ext.Storage().DataType())
		}
		if fsl.IsNull(i) {
			return nil, 0, nil, true, nil
		}
		s, _ := fsl.ValueOffsets(i)
		return fsl.ListValues(), int(s), typ.Shape(), false, nil
	case *tensorext.VariableShapeTensorType:
		st, ok := ext.Storage().(*array.Struct)
		if !ok || st.NumField() != 2 {
			return nil, 0, nil, false, fmt.Errorf("storage %s", ext.Storage().DataType())
		}
		dataIdx, shapeIdx := 0, 1
		if fld := st.DataType().(*arrow.StructType).Field(0); fld.Name == "shape" {
			dataIdx, shapeIdx = 1, 0
		}
		data, ok1 := st.Field(dataIdx).(array.ListLike)
		dims, ok2 := st.Field(shapeIdx).(*array.FixedSizeList)
		if !ok1 || !ok2 {
			return nil, 0, nil, false, fmt.Errorf("storage %s", st.DataType())
		}
		if st.IsNull(i) || data.IsNull(i) {
			return nil, 0, nil, true, nil
		}
		s, e := data.ValueOffsets(i)
		d0, d1 := dims.ValueOffsets(i)
		for k := d0; k < d1; k++ {
			v, err := strconv.Atoi(dims.ListValues().ValueStr(int(k)))
			if err != nil {
				return nil, 0, nil, false, fmt.Errorf("shape value %q", dims.ListValues().ValueStr(int(k)))
			}
			shape = append(shape, v)
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		if int64(n) != e-s {
			return nil, 0, nil, false, fmt.Errorf("shape %v for %d values", shape, e-s)
		}
		return data.ListValues(), int(s), shape, false, nil
	}
	return nil, 0, nil, false, fmt.Errorf("%s is not a tensor type", ext.DataType())
}

// permuted returns v in logical order: permuted(v, p)[k] = v[p[k]]
// (spec: the k-th logical dimension is physical dimension p[k]).
func permuted[T any](v []T, p []int) []T {
	if p == nil {
		return v
	}
	out := make([]T, len(p))
	for k, d := range p {
		out[k] = v[d]
	}
	return out
}

// nestedValues writes the values of the row-major physical tensor of the
// given shape starting at start in vals, in logical order (numpy.transpose
// by perm), nested as numpy prints them: "[[1 2] [3 4]]".
func nestedValues(vals arrow.Array, start int, shape, perm []int) string {
	n := len(shape)
	strides := make([]int, n)
	size := 1
	for k := n - 1; k >= 0; k-- {
		strides[k] = size
		size *= shape[k]
	}
	if size == 0 && n > 0 {
		return "[]"
	}
	lshape, lstrides := permuted(shape, perm), permuted(strides, perm)
	var b strings.Builder
	var walk func(dim, pos int)
	walk = func(dim, pos int) {
		if dim == n {
			b.WriteString(elementText(vals, pos))
			return
		}
		b.WriteByte('[')
		for j := 0; j < lshape[dim]; j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			walk(dim+1, pos+j*lstrides[dim])
		}
		b.WriteByte(']')
	}
	walk(0, start)
	return b.String()
}

// elementText is how the viewer writes one tensor element: arrow-go's
// ValueStr, but float16 as the shortest text of its exact value.
func elementText(vals arrow.Array, pos int) string {
	if f, ok := vals.(*array.Float16); ok && f.IsValid(pos) {
		return strconv.FormatFloat(tensorext.Float16ToFloat64(f.Value(pos)), 'g', -1, 32)
	}
	return vals.ValueStr(pos)
}

// valueRange is the smallest and largest finite, non-null value of n
// elements of numeric vals from start, formatted as cells show them, or
// empty strings.
func valueRange(vals arrow.Array, start, n int) (lo, hi string) {
	mn, mx := math.Inf(1), math.Inf(-1)
	for k := start; k < start+n; k++ {
		if vals.IsNull(k) {
			continue
		}
		var v float64
		switch a := vals.(type) {
		case *array.Float16:
			v = tensorext.Float16ToFloat64(a.Value(k)) // arrow-go's Float32 misreads subnormals
		case *array.Boolean:
			if a.Value(k) {
				v = 1
			}
		default:
			if !arrow.IsInteger(vals.DataType().ID()) && !arrow.IsFloating(vals.DataType().ID()) {
				return "", ""
			}
			var err error
			if v, err = strconv.ParseFloat(vals.ValueStr(k), 64); err != nil {
				return "", ""
			}
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		mn, mx = math.Min(mn, v), math.Max(mx, v)
	}
	if mn > mx {
		return "", ""
	}
	return formatNumber(mn, vals.DataType()), formatNumber(mx, vals.DataType())
}

// compareArrays compares, column by column, the arrays the viewer decodes
// (opened with the default budget, so whole batches) with ref's by
// array.ChunkedEqual, where their types are the same; it returns how many
// columns it compared and the names of those whose types differ.
func compareArrays(t *testing.T, label string, data []byte, ref reference) (compared int, skipped []string) {
	t.Helper()
	f, err := decode.Open(label, data)
	if err != nil {
		t.Errorf("%s: opened lazily, but not whole: %v", label, err)
		return 0, nil
	}
	defer f.Close()
	viewer := make([][]arrow.Array, len(f.Fields()))
	for b := 0; b < f.NumBatches(); b++ {
		rec, err := f.Batch(b)
		if err != nil {
			t.Errorf("%s: batch %d: %v", label, b, err)
			return 0, nil
		}
		for c := range viewer {
			viewer[c] = append(viewer[c], rec.Column(c))
		}
	}
	for c := range ref.cols {
		vt, rt := f.Schema.Field(c).Type, ref.schema.Field(c).Type
		if !arrow.TypeEqual(vt, rt) {
			skipped = append(skipped, fmt.Sprintf("%s (%s, the reference %s)", f.Fields()[c].Name, vt, rt))
			continue
		}
		compared++
		l, r := arrow.NewChunked(vt, viewer[c]), arrow.NewChunked(rt, ref.cols[c])
		if !array.ChunkedEqual(l, r) {
			t.Errorf("%s column %q: the viewer's arrays are not array.Equal to the reference's", label, f.Fields()[c].Name)
		}
		l.Release()
		r.Release()
	}
	return compared, skipped
}

// legacyReference is the reference for a file of legacyCompressed.
func legacyReference(t *testing.T, twin string) reference {
	t.Helper()
	if twin == "" {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues([]int64{0, 1, 2, 3, 4}, nil)
		schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
		return reference{schema: schema, cols: [][]arrow.Array{{b.NewArray()}}}
	}
	data, err := os.ReadFile(filepath.Join(interopDir, twin))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := readWithArrowGo(data)
	if err != nil {
		t.Fatalf("twin %s: %v", twin, err)
	}
	return ref
}

// TestInteropValuesMatchArrowGo: every Arrow file of the interop corpus
// (written by C++, pyarrow, R, arrow-rs, JS, flechette, Java, .NET, polars)
// is opened as the viewer opens a large file (small cache budget: row
// windows, eviction, lazy indexing), and every cell it shows (text and
// null, or a tensor's shapes, names, inline values, range and every
// element) equals arrow-go's own reading of the whole file, or is an error.
// Files arrow-go cannot read, the viewer must refuse too, and the other
// way round.
func TestInteropValuesMatchArrowGo(t *testing.T) {
	start := time.Now()
	var all tally
	var refusedBoth, withErrors []string
	arrays := 0
	for _, path := range testkit.InteropFiles(t) {
		rel, _ := filepath.Rel(interopDir, path)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, ferr := openLazily(rel, data)
			if strings.HasSuffix(path, ".parquet") { // out of scope: refused
				if ferr == nil || !strings.Contains(ferr.Error(), "Parquet") {
					f.Close()
					t.Fatalf("a Parquet file: want it refused as such, got %v", ferr)
				}
				return
			}
			var ref reference
			var rerr error
			if twin, ok := legacyCompressed[rel]; ok {
				ref = legacyReference(t, twin)
			} else {
				ref, rerr = readWithArrowGo(data)
			}
			switch {
			case rerr != nil && ferr != nil:
				refusedBoth = append(refusedBoth, rel)
				if interopErrors[rel] == "" {
					t.Errorf("refused by arrow-go (%v) and the viewer (%v); add it to interopErrors with why", rerr, ferr)
				}
				return
			case rerr != nil:
				t.Fatalf("arrow-go cannot read it (%v), but the viewer opened it", rerr)
			case ferr != nil:
				t.Fatalf("arrow-go reads it, but the viewer refuses it: %v", ferr)
			}
			defer f.Close()
			n := compareFile(t, rel, f, ref)
			cols, skipped := compareArrays(t, rel, data, ref)
			arrays += cols
			if len(skipped) > 0 {
				t.Errorf("types differ from arrow-go's: %v", skipped)
			}
			var colErrs []string
			for _, fld := range f.Fields() {
				if fld.Err != "" {
					colErrs = append(colErrs, fmt.Sprintf("column %q: %s", fld.Name, fld.Err))
				}
			}
			shows := n.errCells > 0 || len(colErrs) > 0
			if shows {
				withErrors = append(withErrors, rel)
			}
			switch reason := interopErrors[rel]; {
			case shows && reason == "":
				t.Errorf("%d of %d cells show errors; %v", n.errCells, n.cells, colErrs)
			case !shows && reason != "":
				t.Errorf("listed in interopErrors (%s) but shows no error: remove it", reason)
			}
			all.add(n)
		})
	}
	t.Logf("%d files, %d cells compared (%d tensors, %d tensor elements), %d mismatches, %d cells with errors, %d files with errors %v; %d row windows compared; %d columns array.Equal; refused by both: %v; %v",
		all.files, all.cells, all.tensors, all.elements, len(all.mismatches), all.errCells, len(withErrors), withErrors, all.windows, arrays, refusedBoth, time.Since(start).Round(time.Millisecond))
	if all.files < 100 || all.cells < 10000 || all.tensors == 0 || all.windows == 0 {
		t.Errorf("too little compared: %d files, %d cells, %d tensors, %d row windows", all.files, all.cells, all.tensors, all.windows)
	}
}

// jsTwinProblems are the integration JSON twins that npm's apache-arrow
// (21.2.0) reads wrongly or not at all, with what it does: their values
// come from readJSONTwin (jsontwin_test.go) instead.
var jsTwinProblems = map[string]string{
	"cpp-21.0.0__generated_list_view":                    `apache-arrow: Unrecognized type: "listview"`,
	"cpp-21.0.0__generated_run_end_encoded":              `apache-arrow: Unrecognized type: "runendencoded"`,
	"cpp-21.0.0__generated_decimal32":                    "apache-arrow's JSONVectorLoader reads every decimal's DATA as 128-bit (Int128.convertArray), whatever its bitWidth: wrong values (8.26 becomes 0)",
	"cpp-21.0.0__generated_decimal64":                    "apache-arrow's JSONVectorLoader reads every decimal's DATA as 128-bit, whatever its bitWidth: wrong values",
	"cpp-21.0.0__generated_decimal256":                   "apache-arrow's JSONVectorLoader reads every decimal's DATA as 128-bit: the stream it writes is short, arrow-go cannot read it (slice bounds out of range)",
	"1.0.0-littleendian__generated_decimal256":           "apache-arrow's JSONVectorLoader reads every decimal's DATA as 128-bit: the stream it writes is short, arrow-go cannot read it (slice bounds out of range)",
	"cpp-21.0.0__generated_interval_mdn":                 "JSON.parse reads the 64-bit nanoseconds, written as JSON numbers, as doubles: 8820212087008106548 becomes 8820212087008106496",
	"1.0.0-littleendian__generated_duplicate_fieldnames": `two top-level fields are named "ints" (int8, int32): apache-arrow gives both the last one's type, int32`,
	"cpp-21.0.0__generated_duplicate_fieldnames":         `two top-level fields are named "ints" (int8, int32): apache-arrow gives both the last one's type, int32`,
	"1.0.0-littleendian__generated_union":                `two fields are named "sparse" (and two "dense") with different types: apache-arrow gives both the last one's type, and arrow-go cannot read the batches it writes (index out of range)`,
}

// twinName is a gold file's name without the corpus prefix and extension.
func twinName(base string) string {
	return strings.TrimPrefix(strings.TrimSuffix(base, ".json.gz"), "data__arrow-ipc-stream__integration__")
}

// TestGoldFilesMatchJSONTwins: every cell the viewer shows for an
// arrow-testing gold file (*.arrow_file, *.stream, Arrow C++'s writer)
// equals the value in its twin in the Arrow integration JSON format, read
// independently of arrow-go's IPC reader: by npm's apache-arrow
// (testdata/json_twins.mjs turns each twin into an IPC stream, which
// arrow-go then reads), or for the twins of jsTwinProblems by a small Go
// reader of the JSON. Where the types agree, the viewer's arrays are also
// array.Equal to the twin's.
func TestGoldFilesMatchJSONTwins(t *testing.T) {
	start := time.Now()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("TENSORVIEW_FULL") == "" { // make test sets it: nothing skips there
			t.Skip("node is not on PATH: the JSON twins are read with npm's apache-arrow (make test installs it)")
		}
		t.Fatal("node is needed to read the JSON twins with npm's apache-arrow: ", err)
	}
	if _, err := os.Stat("../../testdata/node_modules/apache-arrow"); err != nil {
		if os.Getenv("TENSORVIEW_FULL") == "" { // make test sets it: nothing skips there
			t.Skip("testdata/node_modules is missing: `make test` installs it (or `make testdata/node_modules`)")
		}
		t.Fatal("testdata/node_modules is missing: run `make testdata/node_modules` (make test does)")
	}
	twins, _ := filepath.Glob(filepath.Join(interopDir, "arrow-testing", "*.json.gz"))
	if len(twins) < 50 {
		t.Fatalf("only %d JSON twins", len(twins))
	}
	out := t.TempDir()
	var forJS []string
	for _, p := range twins {
		if _, ok := jsTwinProblems[twinName(filepath.Base(p))]; !ok {
			abs, _ := filepath.Abs(p)
			forJS = append(forJS, abs)
		}
	}
	cmd := exec.Command(node, append([]string{"json_twins.mjs", out}, forJS...)...)
	cmd.Dir = "../../testdata"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("json_twins.mjs: %v\n%s", err, msg)
	}
	var all tally
	arrays, goRead := 0, 0
	for _, twin := range twins {
		base := strings.TrimSuffix(filepath.Base(twin), ".json.gz")
		name := twinName(base)
		t.Run(name, func(t *testing.T) {
			var ref reference
			if _, ok := jsTwinProblems[name]; ok {
				schema, cols, err := readJSONTwin(twin)
				if err != nil {
					t.Fatalf("reading the JSON twin in Go: %v", err)
				}
				ref = reference{schema: schema, cols: cols}
				goRead++
			} else {
				if msg, err := os.ReadFile(filepath.Join(out, base+".err")); err == nil {
					t.Fatalf("apache-arrow cannot read the twin (%s): list it in jsTwinProblems", msg)
				}
				stream, err := os.ReadFile(filepath.Join(out, base+".arrows"))
				if err != nil {
					t.Fatal(err)
				}
				if ref, err = readWithArrowGo(stream); err != nil {
					t.Fatalf("arrow-go cannot read the stream apache-arrow wrote (%v): list it in jsTwinProblems", err)
				}
			}
			golds := 0
			for _, ext := range []string{".arrow_file", ".stream"} {
				data, err := os.ReadFile(filepath.Join(interopDir, "arrow-testing", base+ext))
				if errors.Is(err, os.ErrNotExist) {
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				golds++
				f, err := openLazily(name+ext, data)
				if err != nil {
					t.Errorf("%s: the viewer refuses it: %v", ext, err)
					continue
				}
				n := compareFile(t, name+ext, f, ref)
				for _, fld := range f.Fields() {
					if fld.Err != "" {
						t.Errorf("%s column %q shows an error: %s", ext, fld.Name, fld.Err)
					}
				}
				f.Close()
				// compareFile checked that the error cells of a file listed
				// with raggedLists are its ragged rows, and only those.
				if rel := "arrow-testing/" + base + ext; n.errCells > 0 && interopErrors[rel] != raggedLists {
					t.Errorf("%s: %d of %d cells show errors", ext, n.errCells, n.cells)
				}
				cols, skipped := compareArrays(t, name+ext, data, ref)
				arrays += cols
				if len(skipped) > 0 {
					t.Errorf("%s: the twin's types differ, so its values are suspect (list it in jsTwinProblems): %v", ext, skipped)
				}
				all.add(n)
			}
			if golds == 0 {
				t.Fatal("no gold file beside the twin")
			}
		})
	}
	t.Logf("%d gold files (%d twins, %d read by the Go reader), %d cells compared, %d mismatches, %d cells with errors, %d row windows compared, %d columns array.Equal; %v",
		all.files, len(twins), goRead, all.cells, len(all.mismatches), all.errCells, all.windows, arrays, time.Since(start).Round(time.Millisecond))
}
