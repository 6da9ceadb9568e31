package dialect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestNestedSliced reads rows of sliced arrays (offsets into the parent and
// inner levels): the views must point at the right values.
func TestNestedSliced(t *testing.T) {
	mem := memory.DefaultAllocator
	// FixedSizeList<FixedSizeList<float32>[2]>[2]: rows k = [[4k, 4k+1], [4k+2, 4k+3]], row 2 null.
	typ := arrow.FixedSizeListOf(2, arrow.FixedSizeListOf(2, f32))
	b := array.NewFixedSizeListBuilder(mem, 2, typ.Elem())
	inner := b.ValueBuilder().(*array.FixedSizeListBuilder)
	vals := inner.ValueBuilder().(*array.Float32Builder)
	for k := 0; k < 5; k++ {
		if k == 2 {
			b.AppendNull() // arrow-go appends the null row's child slots itself
			continue
		}
		b.Append(true)
		for j := 0; j < 2; j++ {
			inner.Append(true)
			vals.AppendValues([]float32{float32(4*k + 2*j), float32(4*k + 2*j + 1)}, nil)
		}
	}
	full := b.NewArray()
	defer full.Release()
	b.Release()
	sl := array.NewSlice(full, 1, 5) // rows 1..4
	defer sl.Release()

	col, err := detect(arrow.Field{Name: "x", Type: typ})
	if err != nil || col == nil {
		t.Fatal(col, err)
	}
	for i, want := range []string{"[[4 5] [6 7]]", "null", "[[12 13] [14 15]]", "[[16 17] [18 19]]"} {
		tn, err := col.Tensor(sl, i)
		if want == "null" {
			if !IsNull(err) {
				t.Errorf("row %d: %v, want null", i, err)
			}
			continue
		}
		if err != nil || tn.String() != want {
			t.Errorf("row %d: %s, %v; want %s", i, tn.String(), err, want)
		}
	}
	if _, err := col.Tensor(sl, 4); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("row 4 of 4: %v", err)
	}

	// List<List<float32>> (Hugging Face Array2D [null, 2]) sliced, and its
	// inner level sliced too.
	lb := array.NewListBuilder(mem, arrow.ListOf(f32))
	ib := lb.ValueBuilder().(*array.ListBuilder)
	fb := ib.ValueBuilder().(*array.Float32Builder)
	for k := 0; k < 4; k++ {
		lb.Append(true)
		for j := 0; j <= k; j++ {
			ib.Append(true)
			fb.AppendValues([]float32{float32(10*k + 2*j), float32(10*k + 2*j + 1)}, nil)
		}
	}
	lists := lb.NewListArray()
	defer lists.Release()
	lb.Release()
	ls := array.NewSlice(lists, 2, 4)
	defer ls.Release()
	hf, err := detect(extField("h", arrow.ListOf(arrow.ListOf(f32)), "datasets.features.features.Array2DExtensionType", `[[null, 2], "float32"]`))
	if err != nil || hf == nil {
		t.Fatal(hf, err)
	}
	for i, want := range []string{"[[20 21] [22 23] [24 25]]", "[[30 31] [32 33] [34 35] [36 37]]"} {
		tn, err := hf.Tensor(ls, i)
		if err != nil || tn.String() != want || !reflect.DeepEqual(tn.Strides, []int{2, 1}) {
			t.Errorf("HF row %d: %s %v, %v; want %s", i, tn.String(), tn.Strides, err, want)
		}
	}
	// The plain-list adapter on the sliced inner level (a List<float32>).
	innerSlice := array.NewSlice(lists.ListValues(), 3, 6)
	defer innerSlice.Release()
	pl, _ := detect(arrow.Field{Name: "p", Type: listF32})
	for i, want := range []string{"[20 21]", "[22 23]", "[24 25]"} {
		tn, err := pl.Tensor(innerSlice, i)
		if err != nil || tn.String() != want {
			t.Errorf("list row %d: %s, %v; want %s", i, tn.String(), err, want)
		}
	}
}
