package overlay

import (
	"image"
	"image/color"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// gradient is a w×h picture whose pixels all differ: (40x+7, 30y+11,
// 5x+9y+100, 200).
func gradient(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(40*x+7), uint8(30*y+11), uint8(5*x+9*y+100), 200
		}
	}
	return img
}

// TestLayerOverIsBlend: at the mask's own size, Over of Layer draws what
// Blend draws, pixel for pixel, in every style and for every kind of mask.
func TestLayerOverIsBlend(t *testing.T) {
	nan := math.NaN()
	masks := map[string]tensorT{
		"ids": tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{4, 5}, nil, nil, []uint8{
			0, 1, 1, 2, 0,
			1, 1, 1, 2, 255,
			0, 7, 7, 7, 0,
			3, 3, 0, 0, 0}),
		"permuted": tensorOf(t, arrow.PrimitiveTypes.Int32, []int{5, 4}, []int{1, 0}, nil, []int32{
			0, 1, 2, 3, 1, 1, 1, 1, 0, 0, 2, 2, 9, 9, 9, 0, 4, 4, 0, 0}),
		"probabilities": tensorOf(t, arrow.PrimitiveTypes.Float64, []int{4, 5}, nil, nil, []float64{
			0.1, 0.6, nan, 0.9, 0.5, 0, 1, 1, 0.2, 0.4, 0.7, 0.7, 0.1, 0, 0, 1, 0.3, 0.8, 0.8, 0.49}),
		"nulls": tensorOf(t, arrow.PrimitiveTypes.Uint16, []int{4, 5}, nil, nil, []uint16{
			1, 1, 2, 2, 0, 1, 1, 2, 2, 0, 0, 0, 0, 3, 3, 1, 0, 0, 3, 3}, 1, 7, 13),
	}
	styles := map[string]Style{
		"default":    DefaultStyle(),
		"α 0.7":      {Opacity: 0.7, Hidden: map[int64]bool{0: true, 2: true}, Threshold: 0.5},
		"outline":    {Opacity: 0.5, Outline: true, Hidden: map[int64]bool{0: true}, Threshold: 0.5},
		"background": {Opacity: 0.25, Hidden: map[int64]bool{}, Threshold: 0.5},
		"clamped":    {Opacity: 3, Hidden: map[int64]bool{0: true}},
	}
	for mn, mask := range masks {
		for sn, s := range styles {
			want := gradient(5, 4)
			if err := Blend(want, mask, s); err != nil {
				t.Fatalf("%s, %s: Blend: %v", mn, sn, err)
			}
			layer, err := Layer(mask, s, 5, 4)
			if err != nil {
				t.Fatalf("%s, %s: Layer: %v", mn, sn, err)
			}
			got := gradient(5, 4)
			Over(got, layer, s.Opacity)
			if !reflect.DeepEqual(got.Pix, want.Pix) {
				t.Errorf("%s, %s: Over(Layer) differs from Blend:\n%v\n%v", mn, sn, got.Pix, want.Pix)
			}
		}
	}
}

// TestLayerNearest: a layer of another size samples the mask by nearest
// neighbour, as raster.PreviewIn samples a picture: layer (x, y) shows
// mask (y·H/h, x·W/w).
func TestLayerNearest(t *testing.T) {
	// 4×6 class ids: each 2×2 block one class, but for odd pixels.
	mask := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{4, 6}, nil, nil, []uint8{
		1, 1, 2, 2, 3, 3,
		1, 4, 2, 4, 3, 4,
		5, 5, 0, 0, 7, 7,
		5, 4, 0, 4, 7, 4,
	})
	classOf := map[color.RGBA]string{{}: "."}
	for id, name := range map[int64]string{1: "1", 2: "2", 3: "3", 4: "4", 5: "5", 7: "7"} {
		c := VOC(id)
		c.A = 255
		classOf[c] = name
	}
	show := func(img *image.RGBA) string {
		s := ""
		b := img.Bounds()
		for y := range b.Dy() {
			for x := range b.Dx() {
				s += classOf[at(img, x, y)]
			}
			s += "|"
		}
		return s
	}
	for _, c := range []struct {
		w, h int
		want string
	}{
		{6, 4, "112233|142434|55..77|54.474|"},
		{3, 2, "123|5.7|"},                    // rows 0, 2; columns 0, 2, 4
		{4, 3, "1123|1443|55.7|"},             // rows 0, 1, 2 (y·4/3); columns 0, 1, 3, 4
		{2, 4, "12|14|5.|54|"},                // columns 0, 3
		{12, 2, "111122223333|5555....7777|"}, // upscaled: columns x·6/12
		{1, 1, "1|"},
	} {
		layer, err := Layer(mask, DefaultStyle(), c.w, c.h)
		if err != nil {
			t.Fatal(err)
		}
		if got := show(layer); got != c.want {
			t.Errorf("%d×%d: %s, want %s", c.w, c.h, got, c.want)
		}
	}
	// Outlines are the mask's edges, sampled.
	s := DefaultStyle()
	s.Outline, s.Hidden = true, map[int64]bool{}
	block := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{4, 4}, nil, nil, []uint8{
		0, 0, 0, 0,
		0, 1, 1, 0,
		0, 1, 1, 0,
		0, 0, 0, 0,
	})
	layer, err := Layer(block, s, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dots(layer, func(c color.RGBA) bool { return c.A != 0 }), "..####..|..####..|########|########|########|########|..####..|..####..|"; got != want {
		t.Errorf("outline at 8×8: %s, want %s", got, want)
	}
}

func TestOverOpacityAndBounds(t *testing.T) {
	layer := image.NewRGBA(image.Rect(0, 0, 2, 1))
	copy(layer.Pix, []uint8{255, 1, 0, 255, 9, 9, 9, 0}) // one pixel drawn, one transparent
	for _, c := range []struct {
		alpha float64
		want  color.RGBA
	}{
		{0.5, color.RGBA{128, 1, 0, 77}}, // 127.5 rounds up; alpha kept
		{1, color.RGBA{255, 1, 0, 77}},
		{0, color.RGBA{0, 0, 0, 77}},
		{-2, color.RGBA{0, 0, 0, 77}},
		{math.NaN(), color.RGBA{0, 0, 0, 77}},
	} {
		dst := filled(2, 1, color.RGBA{0, 0, 0, 77})
		Over(dst, layer, c.alpha)
		if got := at(dst, 0, 0); got != c.want {
			t.Errorf("α %g: %v, want %v", c.alpha, got, c.want)
		}
		if got := at(dst, 1, 0); got != (color.RGBA{0, 0, 0, 77}) {
			t.Errorf("α %g: transparent layer pixel changed the picture: %v", c.alpha, got)
		}
	}
	// A picture larger than the layer: only the pixels both cover; a
	// sub-image's origin.
	big := filled(4, 3, base)
	sub := big.SubImage(image.Rect(1, 1, 4, 3)).(*image.RGBA)
	Over(sub, layer, 1)
	if got, want := pattern(big), "....|.#..|....|"; got != want {
		t.Errorf("sub-image: %s, want %s", got, want)
	}
}

func TestLayerErrors(t *testing.T) {
	u8 := arrow.PrimitiveTypes.Uint8
	for _, c := range []struct {
		name string
		mask tensorT
		w, h int
		err  string
	}{
		{"no pixels", tensorOf(t, u8, []int{2, 2}, nil, nil, make([]uint8, 4)), 0, 3, "overlay: a layer of 0×3 pixels"},
		{"colour", tensorOf(t, u8, []int{2, 3, 3}, nil, nil, make([]uint8, 18)), 3, 2,
			"overlay: mask: shape [2 3 3] is no mask: it has 3 dimensions larger than 1; a mask has height × width and dimensions of size 1 only"},
		{"null", zeroTensor(), 3, 2, "overlay: the mask is null"},
		{"empty", emptyMask(), 3, 2, "overlay: the mask is 0×3 (height × width): nothing to draw"},
	} {
		if _, err := Layer(c.mask, DefaultStyle(), c.w, c.h); err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
}

// emptyMask is a 0×3 uint8 mask.
func emptyMask() tensorT {
	b := array.NewUint8Builder(memory.DefaultAllocator)
	defer b.Release()
	return tensorT{Values: b.NewArray(), Shape: []int{0, 3}, Strides: []int{3, 1}}
}
