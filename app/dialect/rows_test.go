package dialect

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func TestListRowAndRowMajor(t *testing.T) {
	b := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int32)
	vb := b.ValueBuilder().(*array.Int32Builder)
	b.Append(true)
	vb.AppendValues([]int32{1, 2, 3, 4, 5, 6}, nil)
	b.AppendNull()
	b.Append(true)
	vb.AppendValues([]int32{7, 8}, nil)
	arr := b.NewListArray()
	defer arr.Release()

	values, start, end, err := ListRow(arr, 0)
	if err != nil || start != 0 || end != 6 {
		t.Fatalf("row 0: %d..%d %v", start, end, err)
	}
	tn, err := RowMajor(values, start, end, []int{2, 3}, []string{"y", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tn.String(); got != "[[1 2 3] [4 5 6]]" {
		t.Errorf("row 0 = %s", got)
	}
	if tn.Strides[0] != 3 || tn.Strides[1] != 1 {
		t.Errorf("strides %v", tn.Strides)
	}
	if _, _, _, err := ListRow(arr, 1); !IsNull(err) {
		t.Errorf("row 1: %v, want null", err)
	}
	values, start, end, _ = ListRow(arr, 2)
	if _, err := RowMajor(values, start, end, []int{2, 2}, nil); err == nil || err.Error() != "the row has 2 elements, shape [2,2] needs 4" {
		t.Errorf("row 2: %v", err)
	}
	if _, _, _, err := ListRow(arr, 3); err == nil {
		t.Error("row 3: no error")
	}
}

// TestMalformedOffsets: offsets that point outside the child (a malformed
// file arrow-go did not validate) give a row error, not a panic.
func TestMalformedOffsets(t *testing.T) {
	vals := float32s(1, 2, 3, 4)
	defer vals.Release()
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 2, 100}))
	data := array.NewData(listF32, 2, []*memory.Buffer{nil, offsets}, []arrow.ArrayData{vals.Data()}, 0, 0)
	defer data.Release()
	lst := array.NewListData(data)
	defer lst.Release()
	for _, f := range []arrow.Field{
		{Name: "p", Type: listF32},
		extField("r", listF32, "ray.data.arrow_tensor", "[2]"),
	} {
		col, err := detect(f)
		if err != nil || col == nil {
			t.Fatal(col, err)
		}
		if tn, err := col.Tensor(lst, 0); err != nil || tn.String() != "[1 2]" {
			t.Errorf("%s row 0: %s, %v", f.Name, tn.String(), err)
		}
		if _, err := col.Tensor(lst, 1); err == nil || !strings.Contains(err.Error(), "malformed file") {
			t.Errorf("%s row 1: %v, want a malformed-file error", f.Name, err)
		}
	}
}
