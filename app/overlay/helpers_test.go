package overlay

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// tensorOf builds a one-row arrow.fixed_shape_tensor column of value type vt
// and physical shape (values a Go slice of vt's element type, physical
// row-major; perm and names may be nil) and returns its physical view. null
// lists element positions to make null.
func tensorOf(t testing.TB, vt arrow.DataType, shape, perm []int, names []string, values any, null ...int) tensorext.Tensor {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(vt, shape, perm, names)
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	defer b.Release()
	if err := b.AppendTensor(values); err != nil {
		t.Fatal(err)
	}
	arr := b.NewFixedShapeTensorArray()
	t.Cleanup(arr.Release)
	ten, err := arr.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(null) > 0 {
		ten.Values = withNullsAt(ten.Values, null)
	}
	return ten
}

// withNullsAt returns a copy of a primitive array with the given elements
// null (their values kept in the buffer).
func withNullsAt(a arrow.Array, null []int) arrow.Array {
	n := a.Len()
	bits := make([]byte, (n+7)/8)
	for i := range n {
		bits[i/8] |= 1 << (i % 8)
	}
	for _, i := range null {
		bits[i/8] &^= 1 << (i % 8)
	}
	d := a.Data()
	bufs := append([]*memory.Buffer{memory.NewBufferBytes(bits)}, d.Buffers()[1:]...)
	nd := array.NewData(d.DataType(), n, bufs, nil, len(null), d.Offset())
	defer nd.Release()
	return array.MakeFromData(nd)
}

// filled returns a w×h picture whose pixels are all c.
func filled(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

func at(img *image.RGBA, x, y int) color.RGBA {
	o := img.PixOffset(x, y)
	return color.RGBA{img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3]}
}

// dots renders a picture as rows of '#' (pixels hit reports) and '.'
// (the others), each row ended by '|'.
func dots(img *image.RGBA, hit func(color.RGBA) bool) string {
	var sb strings.Builder
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if hit(at(img, x, y)) {
				sb.WriteByte('#')
			} else {
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('|')
	}
	return sb.String()
}

// pattern shows the pixels that are not base (changed by a blend).
func pattern(img *image.RGBA) string {
	return dots(img, func(c color.RGBA) bool { return c != base })
}

// painted shows the pixels of colour c.
func painted(img *image.RGBA, c color.RGBA) string {
	return dots(img, func(p color.RGBA) bool { return p == c })
}

// same compares floats, NaN equal to NaN.
func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

type tensorT = tensorext.Tensor

// zeroTensor is what a null row reads as.
func zeroTensor() tensorext.Tensor { return tensorext.Tensor{} }

// textTensor is an h×w tensor view of strings.
func textTensor(t testing.TB, h, w int) tensorext.Tensor {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for range h * w {
		b.Append("x")
	}
	a := b.NewArray()
	t.Cleanup(a.Release)
	return tensorext.Tensor{Values: a, Shape: []int{h, w}, Strides: []int{w, 1}}
}
