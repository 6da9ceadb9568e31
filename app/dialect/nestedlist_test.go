package dialect

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// fromJSON builds an array of type dt from its JSON rows.
func fromJSON(t *testing.T, dt arrow.DataType, rows string) arrow.Array {
	t.Helper()
	arr, _, err := array.FromJSON(memory.DefaultAllocator, dt, strings.NewReader(rows))
	if err != nil {
		t.Fatal(err)
	}
	return arr
}

// TestNestedLists: plain List<List<…>> columns (what a FixedSizeList
// written to Parquet without ARROW:schema reads back as) read as tensors
// row by row: the shape is the row's nested lengths when every list at a
// depth has the same length; anything else is the row's own error.
func TestNestedLists(t *testing.T) {
	type row struct {
		shape  []int
		values string // fmtValues of the elements in row-major order
		err    string // a substring of the row's error; "null" for a null row
	}
	tests := []struct {
		name string
		dt   arrow.DataType
		rows string
		want []row
	}{
		{"List<List<float32>>", arrow.ListOf(listF32),
			`[[[1, 2, 3], [4, 5, 6]], null, [[7.5], [8], [9]], [], [[], []], [[1, 2], [3]], [[1], null], [[null, 2]]]`,
			[]row{
				{shape: []int{2, 3}, values: "[1 2 3 4 5 6]"},
				{err: "null"},
				{shape: []int{3, 1}, values: "[7.5 8 9]"},
				{shape: []int{0, 0}, values: "[]"},
				{shape: []int{2, 0}, values: "[]"},
				{err: "row 5: a list at depth 1 has 1 elements where the one before had 2: the row is ragged"},
				{err: "row 6: an inner list at depth 1 (position 1 of the row's lists there) is null"},
				{shape: []int{1, 2}, values: "[null 2]"},
			}},
		{"LargeList<List<LargeList<int64>>>", arrow.LargeListOf(arrow.ListOf(arrow.LargeListOf(i64))),
			`[[[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]], [[[1]], [[2, 3]]], [[[-9007199254740991]]]]`,
			[]row{
				{shape: []int{3, 2, 2}, values: "[1 2 3 4 5 6 7 8 9 10 11 12]"},
				{err: "row 1: a list at depth 2 has 2 elements where the one before had 1: the row is ragged"},
				{shape: []int{1, 1, 1}, values: "[-9.007199254740991e+15]"},
			}},
		{"List<FixedSizeList<float32>[3]>", arrow.ListOf(arrow.FixedSizeListOf(3, f32)),
			`[[[1, 2, 3], [4, 5, 6]], [], [[0, 0, 1]], [[1, 2, 3], null]]`,
			[]row{
				{shape: []int{2, 3}, values: "[1 2 3 4 5 6]"},
				{shape: []int{0, 3}, values: "[]"},
				{shape: []int{1, 3}, values: "[0 0 1]"},
				{err: "an inner list at depth 1 (position 1 of the row's lists there) is null"},
			}},
		{"List<List<uint8>> image", arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Uint8)),
			`[[[0, 255], [128, 64]]]`,
			[]row{{shape: []int{2, 2}, values: "[0 255 128 64]"}}},
		{"List<List<bool>>", arrow.ListOf(arrow.ListOf(arrow.FixedWidthTypes.Boolean)),
			`[[[true], [false]]]`,
			[]row{{shape: []int{2, 1}, values: "[1 0]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col, err := detect(arrow.Field{Name: "a", Type: tt.dt, Nullable: true})
			if err != nil || col == nil {
				t.Fatalf("Detect = %v, %v; want the nested lists rule", col, err)
			}
			levels := strings.Count(typeString(tt.dt), "List<")
			if col.Dialect != "nested lists" || col.Shape != nil || col.NDim != levels {
				t.Errorf("dialect %q shape %v ndim %d, want nested lists, nil, %d", col.Dialect, col.Shape, col.NDim, levels)
			}
			if !strings.Contains(col.Why, "plain "+typeString(tt.dt)+", no extension type") {
				t.Errorf("Why %q", col.Why)
			}
			arr := fromJSON(t, tt.dt, tt.rows)
			if arr.Len() != len(tt.want) {
				t.Fatalf("%d rows, %d expected", arr.Len(), len(tt.want))
			}
			for i, w := range tt.want {
				tn, err := col.Tensor(arr, i)
				switch {
				case w.err == "null":
					if !errors.Is(err, tensorext.ErrNullTensor) {
						t.Errorf("row %d: %v, want a null row", i, err)
					}
					continue
				case w.err != "":
					if err == nil || !strings.Contains(err.Error(), w.err) || errors.Is(err, tensorext.ErrNullTensor) {
						t.Errorf("row %d: err %v, want %q", i, err, w.err)
					}
					continue
				case err != nil:
					t.Errorf("row %d: %v", i, err)
					continue
				}
				if !slices.Equal(tn.Shape, w.shape) {
					t.Errorf("row %d: shape %v, want %v", i, tn.Shape, w.shape)
				}
				if got := fmtValues(rowValues(t, tn)); got != w.values {
					t.Errorf("row %d: values %s, want %s", i, got, w.values)
				}
			}
		})
	}
}

// TestNestedListsSliced: a slice of a List<List> column (as a row window
// gives) reads the same rows.
func TestNestedListsSliced(t *testing.T) {
	dt := arrow.ListOf(listF32)
	arr := fromJSON(t, dt, `[[[1]], [[2, 3], [4, 5]], null, [[6, 7, 8]]]`)
	col, err := detect(arrow.Field{Name: "a", Type: dt})
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	s := array.NewSlice(arr, 1, 4)
	want := []string{"[2 2] [2 3 4 5]", "null", "[1 3] [6 7 8]"}
	for i, w := range want {
		tn, err := col.Tensor(s, i)
		got := "null"
		if err == nil {
			got = fmt.Sprint(tn.Shape) + " " + fmtValues(rowValues(t, tn))
		} else if !errors.Is(err, tensorext.ErrNullTensor) {
			got = err.Error()
		}
		if got != w {
			t.Errorf("row %d of the slice: %s, want %s", i, got, w)
		}
	}
}

// TestNestedListsOrder: one level of List stays the plain list rule (a
// vector per row), FixedSizeLists all the way down the nested
// FixedSizeList rule, and named dialects over List<List> win.
func TestNestedListsOrder(t *testing.T) {
	for _, tt := range []struct {
		f    arrow.Field
		want string
	}{
		{arrow.Field{Name: "a", Type: listF32}, "plain list"},
		{arrow.Field{Name: "a", Type: arrow.LargeListOf(i64)}, "plain list"},
		{arrow.Field{Name: "a", Type: arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(3, f32))}, "nested FixedSizeList"},
		{arrow.Field{Name: "a", Type: hf2F32}, "nested lists"},
		{extField("a", hf2F32, "datasets.features.features.Array2DExtensionType", `[[null, 4], "float32"]`), "Hugging Face Array2D"},
	} {
		col, err := detect(tt.f)
		if err != nil || col == nil || col.Dialect != tt.want {
			t.Errorf("%s: %+v, %v; want %q", typeString(tt.f.Type), col, err, tt.want)
		}
	}
	col, _ := detect(arrow.Field{Name: "a", Type: listF32})
	tn, err := col.Tensor(fromJSON(t, listF32, `[[1, 2, 3]]`), 0)
	if err != nil || !slices.Equal(tn.Shape, []int{3}) {
		t.Errorf("a plain list row: %v, %v; want shape [3]", tn.Shape, err)
	}
}
