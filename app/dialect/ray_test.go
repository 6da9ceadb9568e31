package dialect

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRayVariableRows: per-row errors of Ray's variable-shaped storage.
func TestRayVariableRows(t *testing.T) {
	mem := memory.DefaultAllocator
	sb := array.NewStructBuilder(mem, rayVarF32)
	defer sb.Release()
	db := sb.FieldBuilder(0).(*array.LargeListBuilder)
	dv := db.ValueBuilder().(*array.Float32Builder)
	shb := sb.FieldBuilder(1).(*array.ListBuilder)
	shv := shb.ValueBuilder().(*array.Int64Builder)
	row := func(data []float32, shape []int64, shapeNull []bool) {
		sb.Append(true)
		db.Append(true)
		dv.AppendValues(data, nil)
		if shape == nil {
			shb.AppendNull()
			return
		}
		shb.Append(true)
		valid := make([]bool, len(shape))
		for k := range valid {
			valid[k] = shapeNull == nil || !shapeNull[k]
		}
		shv.AppendValues(shape, valid)
	}
	row([]float32{1, 2, 3, 4, 5, 6}, []int64{2, 3}, nil)     // 0: ok
	row([]float32{1, 2}, nil, nil)                           // 1: shape null
	row([]float32{1, 2}, []int64{-1, -2}, nil)               // 2: negative
	row([]float32{1, 2}, []int64{1, 2}, []bool{false, true}) // 3: null entry
	row([]float32{1, 2}, []int64{2}, nil)                    // 4: wrong ndim
	row([]float32{}, []int64{0, 1 << 40}, nil)               // 5: zero-size, ok
	row(nil, []int64{1 << 40, 1 << 40}, nil)                 // 6: too many elements
	sb.AppendNull()                                          // 7: null row
	db.AppendNull()
	shb.AppendNull()
	arr := sb.NewArray()
	defer arr.Release()

	col, err := detect(extField("v", rayVarF32, "ray.data.arrow_variable_shaped_tensor", "2"))
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	tests := []struct{ want, err string }{
		{"[[1 2 3] [4 5 6]]", ""},
		{"", "row 1: its shape is null"},
		{"", "row 2: shape entry 0: negative (-1)"},
		{"", "row 3: shape entry 1: null"},
		{"", "row 4: its shape has 1 entries, the column's ndim is 2"},
		{"[]", ""},
		{"", "row 6: shape [1099511627776,1099511627776] has too many elements"},
		{"", "tensor is null"},
	}
	for i, tt := range tests {
		tn, err := col.Tensor(arr, i)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("row %d: %v, want %q", i, err, tt.err)
			}
			continue
		}
		if err != nil || tn.String() != tt.want {
			t.Errorf("row %d: %s, %v; want %s", i, tn.String(), err, tt.want)
		}
	}
	if !IsNull(func() error { _, err := col.Tensor(arr, 7); return err }()) {
		t.Error("row 7 is not reported as null")
	}
	// A different array than the column's type.
	if _, err := col.Tensor(float32s(1, 2), 0); err == nil {
		t.Error("Tensor on a float32 array: no error")
	}
}
