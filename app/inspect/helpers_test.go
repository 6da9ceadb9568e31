package inspect

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// fixedArray builds a fixed shape tensor column of rows (each a Go slice of
// the value type's element type, physical row-major order).
func fixedArray(t testing.TB, vt arrow.DataType, shape, perm []int, names []string, rows ...any) *tensorext.FixedShapeTensorArray {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(vt, shape, perm, names)
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	for _, r := range rows {
		if err := b.AppendTensor(r); err != nil {
			t.Fatal(err)
		}
	}
	arr := b.NewFixedShapeTensorArray()
	t.Cleanup(arr.Release)
	return arr
}

// fixed returns the physical view of a one-row column.
func fixed(t testing.TB, vt arrow.DataType, shape, perm []int, names []string, values any) tensorext.Tensor {
	t.Helper()
	ten, err := fixedArray(t, vt, shape, perm, names, values).Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	return ten
}

// withNulls returns a one-row column of float64 values where the elements
// at the positions in null are null.
func withNulls(t testing.TB, vt arrow.DataType, shape []int, values []float64, null map[int]bool) tensorext.Tensor {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(vt, shape, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	b.Append(true)
	vb := b.ValueBuilder()
	for i, v := range values {
		if null[i] {
			vb.AppendNull()
			continue
		}
		switch vb := vb.(type) {
		case *array.Float64Builder:
			vb.Append(v)
		case *array.Float32Builder:
			vb.Append(float32(v))
		case *array.Int32Builder:
			vb.Append(int32(v))
		case *array.Uint8Builder:
			vb.Append(uint8(v))
		case *array.BooleanBuilder:
			vb.Append(v != 0)
		default:
			t.Fatalf("withNulls: %T", vb)
		}
	}
	arr := b.NewFixedShapeTensorArray()
	t.Cleanup(arr.Release)
	ten, err := arr.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	return ten
}

// rowMajor returns the flat position of index in a row-major array of shape.
func rowMajor(shape, index []int) int {
	p := 0
	for d, n := range shape {
		p = p*n + index[d]
	}
	return p
}

// gray256 is a colormap whose entry i is (i, 255-i, i/2, 255): distinct
// entries so that tests can read the LUT index back from R.
func gray256() Colormap {
	c, _ := ColormapByName("gray")
	for i := range c.LUT {
		c.LUT[i] = color.RGBA{R: uint8(i), G: uint8(255 - i), B: uint8(i / 2), A: 255}
	}
	return c
}

// expectIndex is the test's own statement of the colormap mapping.
func expectIndex(f float64, r Range) int {
	if !(r.Max > r.Min) {
		if f > r.Min {
			return 255
		}
		return 0
	}
	i := math.Floor((f - r.Min) / (r.Max - r.Min) * 256)
	return int(math.Max(0, math.Min(255, i)))
}

func px(img *image.RGBA, x, y int) color.RGBA {
	o := img.PixOffset(x, y)
	return color.RGBA{R: img.Pix[o], G: img.Pix[o+1], B: img.Pix[o+2], A: img.Pix[o+3]}
}

func half(bits uint16) float16.Num { return float16.FromBits(bits) }

func mustRender(t testing.TB, ten tensorext.Tensor, v View, cm Colormap, r Range) *image.RGBA {
	t.Helper()
	img, err := Render(ten, v, cm, r)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
