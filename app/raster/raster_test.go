package raster

import (
	"image"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

func TestDetectLayout(t *testing.T) {
	u8, f32, i16 := arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Int16
	cases := []struct {
		name  string
		shape []int
		names []string
		vt    arrow.DataType
		want  Picture
		ok    bool
	}{
		{"2-D int16 is gray", []int{4, 5}, nil, i16, Picture{0, 1, -1, Gray}, true},
		{"2-D bool is gray", []int{4, 5}, nil, arrow.FixedWidthTypes.Boolean, Picture{0, 1, -1, Gray}, true},
		{"HWC by position", []int{4, 5, 3}, nil, u8, Picture{0, 1, 2, RGB}, true},
		{"CHW by position", []int{3, 4, 5}, nil, f32, Picture{1, 2, 0, RGB}, true},
		{"HWC wins over CHW", []int{3, 4, 3}, nil, u8, Picture{0, 1, 2, RGB}, true},
		{"RGBA", []int{4, 5, 4}, nil, u8, Picture{0, 1, 2, RGBA}, true},
		{"one channel", []int{4, 5, 1}, nil, u8, Picture{0, 1, 2, Gray}, true},
		{"C by name", []int{3, 4, 3}, []string{"C", "H", "W"}, u8, Picture{1, 2, 0, RGB}, true},
		{"W,H,C by name", []int{5, 4, 3}, []string{"W", "H", "C"}, u8, Picture{1, 0, 2, RGB}, true},
		{"names in other words", []int{4, 5, 3}, []string{"height", "width", "channels"}, u8, Picture{0, 1, 2, RGB}, true},
		{"3-D int16 is no image", []int{4, 5, 3}, nil, i16, Picture{}, false},
		{"no channel dimension", []int{5, 6, 7}, nil, u8, Picture{}, false},
		{"named channel of size 5", []int{5, 6, 5}, []string{"H", "W", "C"}, u8, Picture{}, false},
		{"1-D", []int{8}, nil, f32, Picture{}, false},
		{"4-D", []int{1, 4, 5, 3}, nil, u8, Picture{}, false},
		{"zero-size", []int{0, 5}, nil, u8, Picture{}, false},
		{"strings", []int{2, 2}, nil, arrow.BinaryTypes.String, Picture{}, false},
	}
	for _, c := range cases {
		got, ok := FindPicture(c.shape, c.names, c.vt)
		if ok != c.ok || got != c.want {
			t.Errorf("%s: got %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// fixedTensor builds a one-row fixed shape tensor array and returns its view.
func fixedTensor(t *testing.T, vt arrow.DataType, shape, perm []int, values any, nulls []bool) tensorext.Tensor {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(vt, shape, perm, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	t.Cleanup(b.Release)
	if nulls == nil {
		if err := b.AppendTensor(values); err != nil {
			t.Fatal(err)
		}
	} else {
		b.Append(true)
		vb := b.ValueBuilder().(*array.Float32Builder)
		vb.AppendValues(values.([]float32), func() []bool {
			valid := make([]bool, len(nulls))
			for i, n := range nulls {
				valid[i] = !n
			}
			return valid
		}())
	}
	arr := b.NewFixedShapeTensorArray()
	t.Cleanup(arr.Release)
	tt, err := arr.Tensor(0)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

func TestPreviewUint8RGBExact(t *testing.T) {
	// 2×2 HWC image: values are drawn as they are.
	vals := []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{2, 2, 3}, nil, vals, nil)
	l, _ := FindPicture(tt.Shape, nil, tt.ValueType())
	img := Preview(tt, l)
	want := []uint8{1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255}
	if img.Bounds().Dx() != 2 || img.Bounds().Dy() != 2 || !reflect.DeepEqual(img.Pix, want) {
		t.Errorf("got %v %v, want %v", img.Bounds(), img.Pix, want)
	}
}

func TestPreviewPermutedCHW(t *testing.T) {
	// Physical HWC [2,2,3] with permutation [2,0,1]: logical CHW [3,2,2].
	// Drawing the logical view must give the same picture as the physical HWC.
	vals := []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{2, 2, 3}, []int{2, 0, 1}, vals, nil)
	lt := tt.Logical()
	l, ok := FindPicture(lt.Shape, nil, lt.ValueType())
	if !ok || l != (Picture{1, 2, 0, RGB}) {
		t.Fatalf("layout %+v %v", l, ok)
	}
	img := Preview(lt, l)
	want := []uint8{1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255}
	if !reflect.DeepEqual(img.Pix, want) {
		t.Errorf("got %v, want %v", img.Pix, want)
	}
}

func TestPreviewFloatGrayScaledWithNullsAndNaN(t *testing.T) {
	nan := float32(math.NaN())
	vals := []float32{-1, 0, 1, nan, 3, 0}
	nulls := []bool{false, false, false, false, false, true}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, vals, nulls)
	lo, hi, ok := Range(tt)
	if !ok || lo != -1 || hi != 3 {
		t.Fatalf("range %v %v %v, want -1 3", lo, hi, ok)
	}
	img := Preview(tt, Picture{0, 1, -1, Gray})
	// (v+1)*255/4 rounded: -1→0, 0→64, 1→128, NaN→transparent, 3→255, null→transparent.
	want := []uint8{0, 0, 0, 255, 64, 64, 64, 255, 128, 128, 128, 255, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 0}
	if !reflect.DeepEqual(img.Pix, want) {
		t.Errorf("got %v\nwant %v", img.Pix, want)
	}
}

func TestPreviewConstantAndRGBA(t *testing.T) {
	tt := fixedTensor(t, arrow.PrimitiveTypes.Float64, []int{1, 2}, nil, []float64{5, 5}, nil)
	if img := Preview(tt, Picture{0, 1, -1, Gray}); !reflect.DeepEqual(img.Pix, []uint8{0, 0, 0, 255, 0, 0, 0, 255}) {
		t.Errorf("constant image %v", img.Pix)
	}
	tt = fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{1, 1, 4}, nil, []uint8{10, 20, 30, 40}, nil)
	if img := Preview(tt, Picture{0, 1, 2, RGBA}); !reflect.DeepEqual(img.Pix, []uint8{10, 20, 30, 40}) {
		t.Errorf("rgba %v", img.Pix)
	}
}

func TestPreviewDownsamples(t *testing.T) {
	h, w := 300, 512
	vals := make([]uint8, h*w)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			vals[y*w+x] = uint8(x % 256)
		}
	}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{h, w}, nil, vals, nil)
	img := Preview(tt, Picture{0, 1, -1, Gray})
	if img.Bounds().Dx() != 256 || img.Bounds().Dy() != 150 {
		t.Fatalf("size %v, want 256×150", img.Bounds())
	}
	// Nearest neighbour: output x samples input x*2.
	if got := img.Pix[4*100]; got != 200 {
		t.Errorf("pixel (100,0) = %d, want 200", got)
	}
}

// TestPreviewIn: a preview drawn into a box is the full preview sampled
// down to it (Shrink); a box of 0 or past MaxPreviewSide is MaxPreviewSide.
func TestPreviewIn(t *testing.T) {
	h, w := 300, 512
	vals := make([]uint8, h*w)
	for i := range vals {
		vals[i] = uint8(i % 251)
	}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{h, w}, nil, vals, nil)
	l := Picture{0, 1, -1, Gray}
	full := Preview(tt, l)
	img := PreviewIn(tt, l, 94, 68)
	if img.Bounds() != image.Rect(0, 0, 94, 55) {
		t.Fatalf("size %v, want 94×55", img.Bounds())
	}
	// Pixel (1, 1) samples input (1*300/55, 1*512/94) = (5, 5).
	if got, want := img.Pix[4*94+4], uint8((5*512+5)%251); got != want {
		t.Errorf("pixel (1,1) = %d, want %d", got, want)
	}
	for _, box := range [][2]int{{0, 0}, {1000, 1000}} {
		if got := PreviewIn(tt, l, box[0], box[1]); !reflect.DeepEqual(got, full) {
			t.Errorf("box %v: %v, want the full preview %v", box, got.Bounds(), full.Bounds())
		}
	}
}

func BenchmarkPreview224RGB(b *testing.B) {
	t := &testing.T{}
	vals := make([]uint8, 224*224*3)
	for i := range vals {
		vals[i] = uint8(i)
	}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{224, 224, 3}, nil, vals, nil)
	l, _ := FindPicture(tt.Shape, nil, tt.ValueType())
	b.ReportAllocs()
	for b.Loop() {
		Preview(tt, l)
	}
}

// BenchmarkRange224RGB finds the range of an image's bytes.
func BenchmarkRange224RGB(b *testing.B) {
	t := &testing.T{}
	vals := make([]uint8, 224*224*3)
	for i := range vals {
		vals[i] = uint8(10 + i%190)
	}
	tt := fixedTensor(t, arrow.PrimitiveTypes.Uint8, []int{224, 224, 3}, nil, vals, nil)
	b.SetBytes(int64(len(vals)))
	for b.Loop() {
		if lo, hi, _ := Range(tt); lo != 10 || hi != 199 {
			b.Fatalf("range %v..%v", lo, hi)
		}
	}
}

// TestStripPreview: a 1-D tensor is one row of grey pixels scaled from its
// min..max; longer ones are sampled down to MaxPreviewSide pixels; other
// tensors have no strip.
func TestStripPreview(t *testing.T) {
	vals := array.NewFloat32Builder(memory.DefaultAllocator)
	vals.AppendValues([]float32{-1, 0, 1, 0.5, 3}, nil)
	arr := vals.NewFloat32Array()
	defer arr.Release()
	// Elements 1..3 of the array, strided by 1: 0, 1, 0.5 -> 0, 255, 128
	// (127.5 rounded, as Preview rounds).
	img := StripPreview(tensorext.Tensor{Values: arr, Offset: 1, Shape: []int{3}, Strides: []int{1}})
	if img == nil || img.Bounds().Dx() != 3 || img.Bounds().Dy() != 1 {
		t.Fatalf("strip %v", img)
	}
	for x, want := range []uint8{0, 255, 128} {
		if c := img.RGBAAt(x, 0); c.R != want || c.G != want || c.B != want || c.A != 255 {
			t.Errorf("pixel %d = %v, want grey %d", x, c, want)
		}
	}
	if StripPreview(tensorext.Tensor{Values: arr, Shape: []int{1, 5}, Strides: []int{5, 1}}) != nil {
		t.Error("a 2-D tensor has a strip")
	}
	long := array.NewUint8Builder(memory.DefaultAllocator)
	for i := range 1024 {
		long.Append(uint8(i / 4))
	}
	la := long.NewUint8Array()
	defer la.Release()
	if img := StripPreview(tensorext.Tensor{Values: la, Shape: []int{1024}, Strides: []int{1}}); img.Bounds().Dx() != MaxPreviewSide {
		t.Errorf("1024 elements: %d pixels, want %d", img.Bounds().Dx(), MaxPreviewSide)
	}
}

// TestRangeUint8: the range of bytes over chunk boundaries, and when 0 and
// 255 come early (the scan may stop) or late.
func TestRangeUint8(t *testing.T) {
	for _, c := range []struct {
		name   string
		fill   func(i int) uint8
		n      int
		lo, hi uint8
	}{
		{"one", func(int) uint8 { return 7 }, 1, 7, 7},
		{"past a chunk", func(i int) uint8 { return uint8(10 + i%100) }, 10000, 10, 109},
		{"extremes late", func(i int) uint8 {
			switch i {
			case 9000:
				return 0
			case 9999:
				return 255
			}
			return 50
		}, 10000, 0, 255},
		{"extremes early", func(i int) uint8 { return uint8(i) }, 10000, 0, 255},
		{"max last", func(i int) uint8 {
			if i == 8192 {
				return 200
			}
			return uint8(1 + i%3)
		}, 8193, 1, 200},
	} {
		vals := make([]uint8, c.n)
		for i := range vals {
			vals[i] = c.fill(i)
		}
		if lo, hi := rangeUint8(vals); lo != c.lo || hi != c.hi {
			t.Errorf("%s: %d..%d, want %d..%d", c.name, lo, hi, c.lo, c.hi)
		}
	}
}
