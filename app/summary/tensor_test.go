package summary

import (
	"image"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/dialect"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/tensorext"
)

// TestFormatNumber checks the table's minimum and maximum text: integers
// exactly, float16, float32 and bfloat16 (a tensorext.FloatType naming
// float32) with 6 digits of a float32, float64 with 6 digits of a float64.
func TestFormatNumber(t *testing.T) {
	bf16 := dialect.NewBFloat16Type()
	cases := []struct {
		v    float64
		dt   arrow.DataType
		want string
	}{
		{-7, arrow.PrimitiveTypes.Int32, "-7"},
		{1, arrow.FixedWidthTypes.Boolean, "1"},
		{1.1015625, bf16, "1.10156"},
		{0x1.fep+127, bf16, "3.38953e+38"},
		{0x1p-133, bf16, "9.18355e-41"},
		{float64(float32(0.1)), arrow.PrimitiveTypes.Float32, "0.1"},
		{float64(float32(0.1)), arrow.PrimitiveTypes.Float64, "0.1"},
		{0x1p-24, arrow.FixedWidthTypes.Float16, "5.96046e-08"},
	}
	for _, c := range cases {
		if got := formatNumber(c.v, c.dt); got != c.want {
			t.Errorf("formatNumber(%v, %s) = %q, want %q", c.v, c.dt, got, c.want)
		}
	}
}

// uint8Tensor is a row-major tensor of shape shape whose element k is k
// mod 251.
func uint8Tensor(shape ...int) tensorext.Tensor {
	n, strides := 1, make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		strides[k] = n
		n *= shape[k]
	}
	b := array.NewUint8Builder(memory.DefaultAllocator)
	defer b.Release()
	for k := range n {
		b.Append(uint8(k % 251))
	}
	return tensorext.Tensor{Values: b.NewArray(), Shape: shape, Strides: strides}
}

// TestSummarizePreviewBox: an image's preview fits the box asked for, and
// raster.MaxPreviewSide a side without one; an embedding too long to list
// is a strip of one pixel per element (up to raster.MaxPreviewSide)
// whatever the box; a tensor of at most InlineValues elements lists them.
func TestSummarizePreviewBox(t *testing.T) {
	img := uint8Tensor(300, 600)
	if s := SummarizeIn(img, 94, 68); s.PreviewKind != raster.Gray || s.Preview.Rect != image.Rect(0, 0, 94, 47) || s.Values != "" || s.Len != 180000 {
		t.Errorf("300×600 in 94×68: %s preview %v, values %q, %d elements", s.PreviewKind, s.Preview.Rect, s.Values, s.Len)
	}
	if s := Summarize(img); s.Preview.Rect != image.Rect(0, 0, raster.MaxPreviewSide, raster.MaxPreviewSide/2) || s.Min != "0" || s.Max != "250" {
		t.Errorf("300×600: preview %v, range %s..%s", s.Preview.Rect, s.Min, s.Max)
	}
	if s := SummarizeIn(uint8Tensor(1000), 94, 68); s.PreviewKind != raster.Strip || s.Preview.Rect != image.Rect(0, 0, raster.MaxPreviewSide, 1) {
		t.Errorf("an embedding of 1000: %s preview %v", s.PreviewKind, s.Preview.Rect)
	}
	if s := Summarize(uint8Tensor(InlineValues)); s.Preview != nil || s.Values != "[0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15]" {
		t.Errorf("16 values: preview %v, values %q", s.Preview != nil, s.Values)
	}
}

// TestValuesText: up to 10000 elements nested as Tensor.String, cut after
// max characters; more, flat after a count.
func TestValuesText(t *testing.T) {
	if got := ValuesText(uint8Tensor(2, 3), 100); got != "[[0 1 2] [3 4 5]]" {
		t.Errorf("2×3: %q", got)
	}
	if got := ValuesText(uint8Tensor(2, 3), 8); got != "[[0 1 2]…" {
		t.Errorf("2×3 cut at 8: %q", got)
	}
	if got := ValuesText(uint8Tensor(10001), 40); got != "10001 values, first ones in order: 0 1 2 …" {
		t.Errorf("10001: %q", got)
	}
}
