//go:build !wasm

package masks

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/internal/testkit"
	"github.com/tensorview/tensorview/tensorext"
)

// maskOver opens file, reads row 0's mask column over its image column,
// opens a session on the image and lays the mask over its picture.
func maskOver(t *testing.T, file, image, mask string) (Layer, *inspect.Session, tensorext.Tensor) {
	t.Helper()
	f := decodetest.Open(t, file)
	col := decodetest.Column(t, f, image)
	m := Read(f, 0, RowColumns(f, 0), col, decodetest.Column(t, f, mask), 0.5)
	ten, err := f.Tensor(0, col)
	if err != nil {
		t.Fatal(err)
	}
	s := inspect.NewSession(ten, 8)
	v, err := Align(m, s.Shown(), s.View)
	if err != nil {
		t.Fatal(err)
	}
	return m, s, v
}

// TestMaskChoices: the masks offered over each image column of the mask
// fixtures (gen_masks.mjs) and of the site's sample, row by row.
func TestMaskChoices(t *testing.T) {
	for _, c := range []struct {
		file, image string
		row         int64
		want        []string
		def         int
		err         string // Read's error for the first choice
	}{
		{"masks_tensor.arrow", "image", 0, []string{"mask", "pred"}, 0, ""},
		{"masks_tensor.arrow", "image", 1, []string{"mask", "pred"}, 0, "mask is null in this row"},
		{"masks_hf.arrow", "image", 0, []string{"annotation"}, 0, ""},
		// Another size: offered, not drawn by default, and says why.
		{"masks_hf.arrow", "image", 1, []string{"annotation"}, -1, "annotation is 6×8 but image is 12×16 (height × width)"},
		{"masks_hf.arrow", "image", 2, []string{"annotation"}, 0, "annotation is null in this row"},
		{"masks_named.arrow", "image", 0, []string{"label"}, 0, ""},
		// js_big's masks are ellipses of their own sizes, never 32×32.
		{"js_big.arrow", "image", 0, []string{"mask"}, -1, "mask is 8×8 but image is 32×32 (height × width)"},
		{"js_images.arrow", "rgb", 0, nil, -1, ""},
	} {
		f := decodetest.Open(t, c.file)
		image := decodetest.Column(t, f, c.image)
		cols := RowColumns(f, c.row)
		choices, def := Choices(cols, image)
		if got := Fields(choices); !reflect.DeepEqual(got, c.want) || def != c.def {
			t.Errorf("%s row %d: choices %q default %d, want %q default %d", c.file, c.row, got, def, c.want, c.def)
			continue
		}
		if len(choices) == 0 {
			continue
		}
		m := Read(f, c.row, cols, image, choices[0].Col, 0.5)
		if m.Err != c.err {
			t.Errorf("%s row %d: Read error %q, want %q", c.file, c.row, m.Err, c.err)
		}
	}
}

func TestMaskReasons(t *testing.T) {
	f := decodetest.Open(t, "masks_tensor.arrow")
	choices, _ := Choices(RowColumns(f, 0), decodetest.Column(t, f, "image"))
	want := []string{
		`mask: 12×16 uint8 class ids, same size as image; named like a mask ("mask")`,
		`pred: 12×16 float32 probabilities, same size as image; named like a mask ("pred")`,
	}
	for i, c := range choices {
		if c.Reason != want[i] {
			t.Errorf("choice %d reason %q, want %q", i, c.Reason, want[i])
		}
	}
}

// TestMaskNamesAndCounts: ClassLabel names reach the mask they name (a 2-D
// List of ClassLabel), not another column's (scene_parse_150's
// scene_category names scenes); the classes present are counted.
func TestMaskNamesAndCounts(t *testing.T) {
	e := testkit.ReadMasks(t)
	want := map[int64]int{}
	for _, id := range e.Mask {
		want[int64(id)]++
	}
	for _, c := range []struct {
		file, image, mask string
		names             []string
	}{
		{"masks_named.arrow", "image", "label", e.Names},
		{"masks_hf.arrow", "image", "annotation", nil},
		{"masks_tensor.arrow", "image", "mask", nil},
	} {
		f := decodetest.Open(t, c.file)
		cols := RowColumns(f, 0)
		m := Read(f, 0, cols, decodetest.Column(t, f, c.image), decodetest.Column(t, f, c.mask), 0.5)
		if m.Err != "" {
			t.Fatalf("%s: %s", c.file, m.Err)
		}
		if !reflect.DeepEqual(m.Names, c.names) {
			t.Errorf("%s: names %q, want %q", c.file, m.Names, c.names)
		}
		got := map[int64]int{}
		for _, cc := range m.Counts {
			got[cc.ID] = cc.Pixels
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: class counts %v, want %v", c.file, got, want)
		}
	}
}

// TestAlignMask: the mask follows the picture's swap and flips, and is off
// when the picture's axes are not the image's height and width.
func TestAlignMask(t *testing.T) {
	e := testkit.ReadMasks(t)
	f := decodetest.Open(t, "masks_tensor.arrow")
	image := decodetest.Column(t, f, "image")
	cols := RowColumns(f, 0)
	m := Read(f, 0, cols, image, decodetest.Column(t, f, "mask"), 0.5)
	ten, err := f.Tensor(0, image)
	if err != nil {
		t.Fatal(err)
	}
	s := inspect.NewSession(ten, 8)
	H, W := e.Height, e.Width
	at := func(y, x int) int64 { return int64(e.Mask[y*W+x]) }
	for _, c := range []struct {
		name  string
		cmd   func(*inspect.Session)
		h, w  int
		class func(y, x int) int64 // the mask's class under picture pixel (x, y)
	}{
		{"default", func(*inspect.Session) {}, H, W, at},
		{"flip rows", (*inspect.Session).FlipRows, H, W, func(y, x int) int64 { return at(H-1-y, x) }},
		{"flip both", func(s *inspect.Session) { s.FlipRows(); s.FlipColumns() }, H, W, func(y, x int) int64 { return at(H-1-y, W-1-x) }},
		{"swap", (*inspect.Session).SwapAxes, W, H, func(y, x int) int64 { return at(x, y) }},
		{"swap and flip columns", func(s *inspect.Session) { s.SwapAxes(); s.FlipColumns() }, W, H, func(y, x int) int64 { return at(H-1-x, y) }},
	} {
		s := inspect.NewSession(ten, 8)
		c.cmd(s)
		v, err := Align(m, s.Shown(), s.View)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(v.Shape, []int{c.h, c.w}) || s.Image.Bounds().Dy() != c.h || s.Image.Bounds().Dx() != c.w {
			t.Errorf("%s: mask view %v over a %v picture, want [%d %d]", c.name, v.Shape, s.Image.Bounds(), c.h, c.w)
			continue
		}
		for y := range c.h {
			for x := range c.w {
				if id, ok := overlay.MaskValue(v, 0.5, y, x); !ok || id != c.class(y, x) {
					t.Fatalf("%s: class under (%d, %d) = %d %v, want %d", c.name, x, y, id, ok, c.class(y, x))
				}
			}
		}
	}
	// Rows H, columns C: no height × width picture.
	s.SetAxisX(2)
	if _, err := Align(m, s.Shown(), s.View); err == nil || !strings.Contains(err.Error(), "the picture shows dimensions 0: H (12) × 2: C (3), and the mask follows only the image's height and width (0: H (12) × 1: W (16))") {
		t.Errorf("axes H, C: %v", err)
	}
}

// TestBlendOver: a class's colour blended at a known pixel, at the default
// opacity (0.5) and at 0.7; a hidden class's pixel and an outline's
// interior pixel unchanged; the base picture never changes. The session
// draws the uint8 picture scaled to its min..max: pixel (x 3, y 3), stored
// (56, 78, 106), is drawn (49, 80, 118).
func TestBlendOver(t *testing.T) {
	_, s, v := maskOver(t, "masks_tensor.arrow", "image", "mask")
	base := s.Image.RGBAAt(3, 3)
	if base != (color.RGBA{49, 80, 118, 255}) {
		t.Fatalf("base pixel (3, 3) = %v", base)
	}
	// (x 3, y 3) is inside class 1's block, VOC colour (128, 0, 0):
	// floor((1-a)*img + a*colour + 0.5).
	for _, c := range []struct {
		name string
		edit func(*overlay.Style)
		want color.RGBA
	}{
		{"opacity 0.5", func(*overlay.Style) {}, color.RGBA{89, 40, 59, 255}},                     // 88.5+.5, 40+.5, 59+.5
		{"opacity 0.7", func(s *overlay.Style) { s.Opacity = 0.7 }, color.RGBA{104, 24, 35, 255}}, // 104.3, 24, 35.4
		{"class 1 hidden", func(s *overlay.Style) { s.Hidden = map[int64]bool{0: true, 1: true} }, base},
		{"outline: interior", func(s *overlay.Style) { s.Outline = true }, base},
	} {
		st := overlay.DefaultStyle()
		c.edit(&st)
		out, err := Blend(s.Image, v, st)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.RGBAAt(3, 3); got != c.want {
			t.Errorf("%s: pixel (3, 3) = %v, want %v", c.name, got, c.want)
		}
		if got := s.Image.RGBAAt(3, 3); got != base {
			t.Errorf("%s: the base picture changed: %v", c.name, got)
		}
	}
	// Outline: class 1's corner (x 1, y 2) is drawn; background (x 0, y 0) never.
	st := overlay.DefaultStyle()
	st.Outline = true
	out, _ := Blend(s.Image, v, st)
	if got := out.RGBAAt(1, 2); got == s.Image.RGBAAt(1, 2) {
		t.Errorf("outline: the block's corner is not drawn: %v", got)
	}
	if got := out.RGBAAt(0, 0); got != s.Image.RGBAAt(0, 0) {
		t.Errorf("background drawn: %v", got)
	}
}

func TestMaskReadout(t *testing.T) {
	m, _, v := maskOver(t, "masks_named.arrow", "image", "label")
	for _, c := range []struct {
		x, y int
		want string
	}{
		{3, 3, `label = 1 "road"`},
		{10, 8, `label = 2 "car"`},
		{0, 0, `label = 0 "background"`},
		{1, 11, `label = 7`},
	} {
		if got := Readout(m.Field, v, m.Kind, m.Names, m.Void, 0.5, c.x, c.y); got != c.want {
			t.Errorf("(%d, %d): %q, want %q", c.x, c.y, got, c.want)
		}
	}
	// A float mask: the value and its class.
	m, _, v = maskOver(t, "masks_tensor.arrow", "image", "pred")
	if got, want := Readout(m.Field, v, m.Kind, nil, false, 0.5, 9, 0), "pred = 0.6 (class 1)"; got != want {
		t.Errorf("float mask: %q, want %q", got, want)
	}
}

// TestEncodedMaskIDs: an encoded mask is read as the class ids it stores
// (imagebytes.DecodeMask): a palette PNG's indices (VOC's masks, 255 the
// void class), a 16-bit grey PNG's samples exactly; both are offered over
// the image of their size, and an RGB "mask" says it holds colours.
func TestEncodedMaskIDs(t *testing.T) {
	const w, h = 4, 3
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	photo := image.NewRGBA(image.Rect(0, 0, w, h))
	pal := make(color.Palette, 256)
	for k := range pal {
		pal[k] = color.RGBA{uint8(k), 0, uint8(255 - k), 255}
	}
	voc := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	deep := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			voc.SetColorIndex(x, y, uint8([]int{0, 1, 2, 255}[x]))
			deep.SetGray16(x, y, color.Gray16{Y: uint16([]int{0, 300, 65535, 7}[x])})
		}
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "image", Type: arrow.BinaryTypes.Binary},
		{Name: "annotation", Type: arrow.BinaryTypes.Binary},
		{Name: "seg16", Type: arrow.BinaryTypes.Binary},
		{Name: "rgb_mask", Type: arrow.BinaryTypes.Binary},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for k, img := range []image.Image{photo, voc, deep, photo} {
		b.Field(k).(*array.BinaryBuilder).Append(enc(img))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	f, err := decode.Open("masks.arrow", testkit.IPCFile(t, schema, rec))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cols := RowColumns(f, 0)
	choices, _ := Choices(cols, 0)
	if got := Fields(choices); !slices.Contains(got, "annotation") || !slices.Contains(got, "seg16") || slices.Contains(got, "rgb_mask") {
		t.Errorf("masks offered over image: %q, want annotation and seg16, not rgb_mask", got)
	}
	for _, c := range []struct {
		col  int
		want []int
	}{{1, []int{0, 1, 2, 255}}, {2, []int{0, 300, 65535, 7}}} {
		m := Read(f, 0, cols, 0, c.col, 0.5)
		if m.Err != "" {
			t.Fatalf("%s: %s", m.Field, m.Err)
		}
		for x, id := range c.want {
			pos, _ := m.Mask.Pos(2, x)
			if v, _ := m.Mask.Float64(pos); v != float64(id) {
				t.Errorf("%s (2, %d) = %v, want class %d", m.Field, x, v, id)
			}
		}
	}
	if m := Read(f, 0, cols, 0, 3, 0.5); !strings.Contains(m.Err, "colours") {
		t.Errorf("an RGB mask: %q, want it to say it holds colours", m.Err)
	}
}

// TestVoidReadout: the readout of masks_voc.arrow's paletted mask names
// its 255 void.
func TestVoidReadout(t *testing.T) {
	m, _, v := maskOver(t, "masks_voc.arrow", "image", "mask")
	if got := Readout(m.Field, v, m.Kind, m.Names, m.Void, 0.5, 1, 1); got != "mask = 255 (void)" {
		t.Errorf("readout %q", got)
	}
}
