package overlay

import (
	"image"
	"image/color"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestKindOf(t *testing.T) {
	for _, c := range []struct {
		dt   arrow.DataType
		want MaskKind
	}{
		{arrow.PrimitiveTypes.Uint8, ClassIDs},
		{arrow.PrimitiveTypes.Uint16, ClassIDs},
		{arrow.PrimitiveTypes.Uint32, ClassIDs},
		{arrow.PrimitiveTypes.Int64, ClassIDs},
		{arrow.FixedWidthTypes.Boolean, Binary},
		{arrow.FixedWidthTypes.Float16, Probabilities},
		{arrow.PrimitiveTypes.Float32, Probabilities},
		{arrow.PrimitiveTypes.Float64, Probabilities},
		{arrow.BinaryTypes.String, NotMask},
		{nil, NotMask},
	} {
		if got := KindOf(c.dt); got != c.want {
			t.Errorf("KindOf(%v) = %v, want %v", c.dt, got, c.want)
		}
	}
}

func TestMaskAxes(t *testing.T) {
	for _, c := range []struct {
		shape []int
		names []string
		h, w  int
		err   string
	}{
		{[]int{4, 5}, nil, 0, 1, ""},
		{[]int{4, 5, 1}, nil, 0, 1, ""},                                       // a decoded grey PNG
		{[]int{1, 4, 5}, nil, 1, 2, ""},                                       // 1×H×W
		{[]int{1, 1, 4, 5}, nil, 2, 3, ""},                                    // N=1, C=1
		{[]int{1, 5}, nil, 0, 1, ""},                                          // a single row
		{[]int{1, 1}, nil, 0, 1, ""},                                          // one pixel
		{[]int{-1, -1, 1}, nil, 0, 1, ""},                                     // sizes vary
		{[]int{5, 4}, []string{"width", "height"}, 1, 0, ""},                  // named: transposed
		{[]int{1, 4, 5}, []string{"c", "y", "x"}, 1, 2, ""},                   // named with a channel
		{[]int{4, 5, 1}, []string{"a", "b", "c"}, 0, 1, ""},                   // names the rule does not know
		{[]int{5}, nil, 0, 0, "a 1-D tensor [5] is no mask"},                  // too few
		{[]int{3, 4, 5}, nil, 0, 0, "shape [3 4 5] is no mask: it has 3 dim"}, // a colour picture or a volume
	} {
		h, w, err := MaskAxes(c.shape, c.names)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("MaskAxes(%v, %v) error %v, want %q", c.shape, c.names, err, c.err)
			}
			continue
		}
		if err != nil || h != c.h || w != c.w {
			t.Errorf("MaskAxes(%v, %v) = %d, %d, %v; want %d, %d", c.shape, c.names, h, w, err, c.h, c.w)
		}
	}
}

// base is the picture's colour under the masks of the blend tests.
var base = color.RGBA{100, 50, 200, 255}

func TestBlendOpacity(t *testing.T) {
	// A 2×3 mask of class ids 0, 1, 2 and 255 over a picture of base.
	mask := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{2, 3}, nil, nil, []uint8{0, 1, 2, 1, 1, 255})
	// out = floor((1−α)·img + α·colour + 0.5), colours VOC(1) = (128,0,0),
	// VOC(2) = (0,128,0), VOC(255) = (224,224,192); class 0 hidden.
	for _, c := range []struct {
		alpha      float64
		c1, c2, c3 color.RGBA
	}{
		{0, base, base, base},
		{0.5, color.RGBA{114, 25, 100, 255}, color.RGBA{50, 89, 100, 255}, color.RGBA{162, 137, 196, 255}},
		{0.25, color.RGBA{107, 38, 150, 255}, color.RGBA{75, 70, 150, 255}, color.RGBA{131, 94, 198, 255}},
		{1, color.RGBA{128, 0, 0, 255}, color.RGBA{0, 128, 0, 255}, color.RGBA{224, 224, 192, 255}},
		{7, color.RGBA{128, 0, 0, 255}, color.RGBA{0, 128, 0, 255}, color.RGBA{224, 224, 192, 255}}, // clamped to 1
		{-1, base, base, base}, // clamped to 0
	} {
		img := filled(3, 2, base)
		s := DefaultStyle()
		s.Opacity = c.alpha
		if err := Blend(img, mask, s); err != nil {
			t.Fatal(err)
		}
		want := [2][3]color.RGBA{{base, c.c1, c.c2}, {c.c1, c.c1, c.c3}}
		for y := range 2 {
			for x := range 3 {
				if got := at(img, x, y); got != want[y][x] {
					t.Errorf("α %g: pixel (%d, %d) = %v, want %v", c.alpha, x, y, got, want[y][x])
				}
			}
		}
	}
	// Halves round up: 0 under 255 at α 0.5 is 127.5 → 128; alpha is kept.
	img := filled(1, 1, color.RGBA{0, 0, 0, 77})
	one := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{1, 1}, nil, nil, []uint8{7}) // VOC(7) = (128,128,128)
	s := Style{Opacity: 0.5, Palette: func(int64) color.RGBA { return color.RGBA{255, 1, 0, 255} }}
	if err := Blend(img, one, s); err != nil {
		t.Fatal(err)
	}
	if got := at(img, 0, 0); got != (color.RGBA{128, 1, 0, 77}) {
		t.Errorf("rounding: %v, want {128 1 0 77}", got)
	}
}

func TestBlendOutline(t *testing.T) {
	block := []uint8{
		0, 0, 0, 0, 0,
		0, 1, 1, 1, 0,
		0, 1, 1, 1, 0,
		0, 1, 1, 1, 0,
		0, 0, 0, 0, 0,
	}
	edge := []uint8{ // class 1 fills the picture but for a 2 in the corner
		2, 1, 1,
		1, 1, 1,
		1, 1, 1,
	}
	for _, c := range []struct {
		name   string
		shape  []int
		values []uint8
		hidden map[int64]bool
		want   string
	}{
		{"ring of a block", []int{5, 5}, block, map[int64]bool{0: true}, ".....|.###.|.#.#.|.###.|.....|"},
		{"background shown too", []int{5, 5}, block, map[int64]bool{}, ".###.|#####|##.##|#####|.###.|"},
		{"class 1 hidden", []int{5, 5}, block, map[int64]bool{0: true, 1: true}, ".....|.....|.....|.....|.....|"},
		{"the picture's border is no edge", []int{3, 3}, edge, map[int64]bool{0: true}, "##.|#..|...|"},
		{"hidden neighbour still an edge", []int{3, 3}, edge, map[int64]bool{2: true}, ".#.|#..|...|"},
	} {
		mask := tensorOf(t, arrow.PrimitiveTypes.Uint8, c.shape, nil, nil, c.values)
		img := filled(c.shape[1], c.shape[0], base)
		s := Style{Opacity: 1, Outline: true, Hidden: c.hidden}
		if err := Blend(img, mask, s); err != nil {
			t.Fatal(err)
		}
		if got := pattern(img); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestBlendKinds(t *testing.T) {
	red := color.RGBA{128, 0, 0, 255} // VOC(1) at α 1
	nan := math.NaN()
	for _, c := range []struct {
		name      string
		dt        arrow.DataType
		values    any
		null      []int
		threshold float64
		want      string
	}{
		{"bool", arrow.FixedWidthTypes.Boolean, []bool{true, false, false, true}, nil, 0.5, "#.|.#|"},
		{"probabilities", arrow.PrimitiveTypes.Float32, []float32{0.49, 0.5, 1, 0}, nil, 0.5, ".#|#.|"},
		{"NaN is no class", arrow.PrimitiveTypes.Float64, []float64{nan, 0.9, 0.2, 0.7}, nil, 0.5, ".#|.#|"},
		{"logits at threshold 0", arrow.PrimitiveTypes.Float64, []float64{-3, 0, 2.5, -0.1}, nil, 0, ".#|#.|"},
		{"nulls are not drawn", arrow.PrimitiveTypes.Uint16, []uint16{1, 1, 1, 1}, []int{1, 2}, 0.5, "#.|.#|"},
		{"uint32 ids", arrow.PrimitiveTypes.Uint32, []uint32{0, 1, 1, 0}, nil, 0.5, ".#|#.|"},
	} {
		mask := tensorOf(t, c.dt, []int{2, 2}, nil, nil, c.values, c.null...)
		img := filled(2, 2, base)
		s := DefaultStyle()
		s.Opacity, s.Threshold = 1, c.threshold
		if err := Blend(img, mask, s); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := pattern(img); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		for y := range 2 {
			for x := range 2 {
				if p := at(img, x, y); p != base && p != red {
					t.Errorf("%s: pixel (%d, %d) = %v", c.name, x, y, p)
				}
			}
		}
	}
}

func TestBlendLayouts(t *testing.T) {
	s := DefaultStyle()
	s.Opacity = 1
	// Physical [3, 2] with permutation [1, 0]: the logical mask is 2×3,
	// logical (y, x) = physical (x, y).
	perm := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{3, 2}, []int{1, 0}, nil, []uint8{1, 0, 0, 0, 0, 2})
	img := filled(3, 2, base)
	if err := Blend(img, perm, s); err != nil {
		t.Fatal(err)
	}
	if got, want := pattern(img), "#..|..#|"; got != want {
		t.Errorf("permuted: %s, want %s", got, want)
	}
	if at(img, 2, 1) != VOC(2) {
		t.Errorf("permuted: (2, 1) = %v, want VOC(2)", at(img, 2, 1))
	}
	// A decoded grey PNG (H×W×1) and a 1×H×W tensor.
	for _, shape := range [][]int{{2, 3, 1}, {1, 2, 3}} {
		m := tensorOf(t, arrow.PrimitiveTypes.Uint8, shape, nil, nil, []uint8{0, 3, 0, 0, 0, 3})
		img := filled(3, 2, base)
		if err := Blend(img, m, s); err != nil {
			t.Fatal(err)
		}
		if got, want := pattern(img), ".#.|..#|"; got != want {
			t.Errorf("%v: %s, want %s", shape, got, want)
		}
	}
	// A picture whose bounds do not start at 0, 0.
	big := filled(6, 5, base)
	sub := big.SubImage(image.Rect(2, 1, 5, 3)).(*image.RGBA)
	m := tensorOf(t, arrow.PrimitiveTypes.Uint8, []int{2, 3}, nil, nil, []uint8{1, 0, 0, 0, 0, 1})
	if err := Blend(sub, m, s); err != nil {
		t.Fatal(err)
	}
	if got, want := pattern(big), "......|..#...|....#.|......|......|"; got != want {
		t.Errorf("sub-image: %s, want %s", got, want)
	}
}

func TestBlendErrors(t *testing.T) {
	img := filled(3, 2, base)
	s := DefaultStyle()
	u8 := arrow.PrimitiveTypes.Uint8
	for _, c := range []struct {
		name string
		mask tensorT
		err  string
	}{
		{"size", tensorOf(t, u8, []int{3, 2}, nil, nil, make([]uint8, 6)),
			"overlay: mask is 3×2 (height × width), the image 2×3"},
		{"colour", tensorOf(t, u8, []int{2, 3, 3}, nil, nil, make([]uint8, 18)),
			"overlay: mask: shape [2 3 3] is no mask: it has 3 dimensions larger than 1; a mask has height × width and dimensions of size 1 only"},
		{"1-D", tensorOf(t, u8, []int{6}, nil, nil, make([]uint8, 6)),
			"overlay: mask: a 1-D tensor [6] is no mask: it needs a height and a width"},
		{"null", zeroTensor(), "overlay: the mask is null"},
		{"strings", textTensor(t, 2, 3), "overlay: a mask of utf8 values cannot be drawn; need integer class ids, booleans or floating point probabilities"},
	} {
		before := append([]byte(nil), img.Pix...)
		err := Blend(img, c.mask, s)
		if err == nil || err.Error() != c.err {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
		if !reflect.DeepEqual(before, img.Pix) {
			t.Errorf("%s: picture changed", c.name)
		}
	}
}

func TestCountClassesAndLegend(t *testing.T) {
	mask := tensorOf(t, arrow.PrimitiveTypes.Int32, []int{2, 4}, nil, nil, []int32{0, 0, 1, 300, 1, -1, 0, 0}, 7)
	counts, err := CountClasses(mask, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := []ClassCount{{-1, 1}, {0, 3}, {1, 2}, {300, 1}}
	if !reflect.DeepEqual(counts, want) {
		t.Fatalf("counts %v, want %v", counts, want)
	}
	s := DefaultStyle()
	s.Hidden[300] = true
	items := s.Legend(counts, []string{"sky", "car"}, false)
	wantItems := []LegendItem{
		{ID: -1, Name: "-1", Label: "-1", Color: VOC(-1), Pixels: 1},
		{ID: 0, Name: "sky", Label: `0 "sky"`, Color: VOC(0), Pixels: 3, Hidden: true},
		{ID: 1, Name: "car", Label: `1 "car"`, Color: VOC(1), Pixels: 2},
		{ID: 300, Name: "300", Label: "300", Color: VOC(300), Pixels: 1, Hidden: true},
	}
	if !reflect.DeepEqual(items, wantItems) {
		t.Errorf("legend\n%+v\nwant\n%+v", items, wantItems)
	}
	for _, c := range []struct {
		y, x int
		id   int64
		ok   bool
	}{{0, 2, 1, true}, {0, 3, 300, true}, {1, 1, -1, true}, {1, 3, 0, false}, {2, 0, 0, false}, {0, -1, 0, false}} {
		id, ok := MaskValue(mask, 0.5, c.y, c.x)
		if id != c.id || ok != c.ok {
			t.Errorf("MaskValue(%d, %d) = %d, %v; want %d, %v", c.y, c.x, id, ok, c.id, c.ok)
		}
	}
	if _, err := CountClasses(zeroTensor(), 0.5); err == nil {
		t.Error("CountClasses of a null mask: no error")
	}
}
