//go:build !wasm

package boxes

import (
	"fmt"
	"image"
	"image/color"
	"reflect"
	"slices"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/internal/testkit"
)

// boxesExpected is testdata/boxes_expected.json (gen_boxes.mjs): each
// row's boxes placed on its image by the formats' definitions, in JS.
type boxesExpected struct {
	HF struct {
		Width, Height int
		Names         []string
		Guess         string
		Rows          []*struct{ XYWH, XYXY expectedPlacing }
	}
	YOLO struct {
		Width, Height int
		Guess         string
		Rows          []*struct{ CXCYWHN expectedPlacing }
	}
}

type expectedPlacing struct {
	Boxes []struct {
		Index          int
		Fate           string // drawn, clipped, outside, invalid
		X0, Y0, X1, Y1 float64
		Pixels         struct{ Left, Top, Right, Bottom int }
	}
	Drawn, Clipped, Outside, Invalid int
}

func readBoxesExpected(t *testing.T) boxesExpected {
	var e boxesExpected
	testkit.TestdataJSON(t, "boxes_expected.json", &e)
	return e
}

// checkPlaced compares a layer's placed boxes with the twin's.
func checkPlaced(t *testing.T, what string, l Layer, want expectedPlacing) {
	t.Helper()
	p := l.Placed
	if len(p.Boxes) != want.Drawn || p.Clipped != want.Clipped || p.Outside != want.Outside || p.Invalid != want.Invalid {
		t.Errorf("%s: %d drawn, %d clipped, %d outside, %d invalid; want %d, %d, %d, %d", what,
			len(p.Boxes), p.Clipped, p.Outside, p.Invalid, want.Drawn, want.Clipped, want.Outside, want.Invalid)
		return
	}
	k := 0
	for _, b := range want.Boxes {
		if b.Fate != "drawn" && b.Fate != "clipped" {
			continue
		}
		got := p.Boxes[k]
		k++
		px := got.PixelRect(l.W, l.H)
		wantPx := image.Rect(b.Pixels.Left, b.Pixels.Top, b.Pixels.Right+1, b.Pixels.Bottom+1)
		if got.Index != b.Index || got.X0 != b.X0 || got.Y0 != b.Y0 || got.X1 != b.X1 || got.Y1 != b.Y1 ||
			got.Clipped != (b.Fate == "clipped") || px != wantPx {
			t.Errorf("%s: box %+v covering %v; want %+v", what, got, px, b)
		}
	}
}

// openBoxes opens a box fixture and reads row's boxes over its image.
func openBoxes(t *testing.T, file string, row int64, format overlay.BoxFormat) (*decode.File, Layer) {
	t.Helper()
	f := decodetest.Open(t, file)
	choices := Choices(f, decodetest.Column(t, f, "image"))
	if len(choices) != 1 {
		t.Fatalf("%s: choices %+v", file, choices)
	}
	ten, err := f.Tensor(row, decodetest.Column(t, f, "image"))
	if err != nil {
		t.Fatal(err)
	}
	h, w, ok := PictureSize(ten)
	if !ok {
		t.Fatalf("%s: no picture", file)
	}
	return f, Read(f, row, choices[0], w, h, format)
}

// TestBoxChoices: the columns of boxes of the fixtures, and none in a file
// without any.
func TestBoxChoices(t *testing.T) {
	for _, c := range []struct {
		file string
		skip string
		want []Choice
	}{
		{"boxes_hf.arrow", "image", []Choice{{Col: 4, Column: overlay.BoxColumn{Name: "objects", Layout: overlay.StructOfLists, BBox: "bbox", Category: "category", Area: "area"}}}},
		{"boxes_yolo.arrow", "image", []Choice{{Col: 2, Column: overlay.BoxColumn{Name: "boxes", Layout: overlay.ListOfBoxes}}}},
		{"boxes_yolo.arrow", "boxes", nil},
		{"masks_tensor.arrow", "image", nil},
	} {
		f := decodetest.Open(t, c.file)
		if got := Choices(f, decodetest.Column(t, f, c.skip)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s without %s: %+v, want %+v", c.file, c.skip, got, c.want)
		}
	}
}

// TestReadBoxes: every row of the fixtures read and placed as the twin
// (gen_boxes.mjs) places them, in the format guessed and, for the Hugging
// Face set's row 0, in xyxy; the guess's reasons, each box's error, the
// class names and labels; a null row.
func TestReadBoxes(t *testing.T) {
	e := readBoxesExpected(t)
	for _, file := range []string{"boxes_hf.arrow"} { // boxes_hf.parquet: e2e (its reader is the browser's)
		for row, want := range e.HF.Rows {
			f, l := openBoxes(t, file, int64(row), overlay.UnknownFormat)
			if want == nil {
				if l.Err != "objects is null in this row" || l.Raw != nil {
					t.Errorf("%s row %d: %+v", file, row, l)
				}
				continue
			}
			if l.Err != "" || l.Auto.String() != e.HF.Guess || l.Format != l.Auto || l.Stated || l.W != e.HF.Width || l.H != e.HF.Height {
				t.Errorf("%s row %d: %+v", file, row, l)
			}
			checkPlaced(t, file+" xywh", l, want.XYWH)
			checkPlaced(t, file+" xyxy", l.In(overlay.XYXY), want.XYXY)
			if names := Names(f, Choices(f, -1)[0]); !reflect.DeepEqual(names, e.HF.Names) {
				t.Errorf("%s: names %q", file, names)
			}
		}
	}
	_, l := openBoxes(t, "boxes_hf.arrow", 0, overlay.UnknownFormat)
	if want := "the stored areas equal width × height (box 0: 10 × 8 = 80): COCO xywh"; l.AutoWhy != want {
		t.Errorf("reason %q, want %q", l.AutoWhy, want)
	}
	var errs []string
	for _, e := range l.Placed.Errors {
		errs = append(errs, e.Error())
	}
	if want := []string{
		"box 3: a coordinate is not finite: [NaN 2 5 5]",
		"box 4: negative height -3 (xywh [10 15 6 -3])",
		"box 5: outside the 32×24 image: x 40..45, y 2..7",
	}; !reflect.DeepEqual(errs, want) {
		t.Errorf("errors %q, want %q", errs, want)
	}
	names := e.HF.Names
	var labels []string
	for _, b := range l.Placed.Boxes {
		labels = append(labels, b.Label(names))
	}
	if want := []string{"#0 Coverall", "#1 Mask", "#2 Gloves"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if _, l1 := openBoxes(t, "boxes_hf.arrow", 1, overlay.UnknownFormat); l1.Placed.Boxes[1].Label(names) != "#1 7" {
		t.Errorf("a class past the names: %q", l1.Placed.Boxes[1].Label(names))
	}
	// The format chosen replaces the guess and keeps it.
	if _, lx := openBoxes(t, "boxes_hf.arrow", 0, overlay.XYXY); lx.Format != overlay.XYXY || lx.Auto != overlay.XYWH || len(lx.Placed.Boxes) != 1 {
		t.Errorf("xyxy: %+v", lx)
	}

	for row, want := range e.YOLO.Rows {
		_, l := openBoxes(t, "boxes_yolo.arrow", int64(row), overlay.UnknownFormat)
		if want == nil {
			if l.Err != "boxes is null in this row" {
				t.Errorf("yolo row %d: %+v", row, l)
			}
			continue
		}
		if l.Err != "" || l.Auto.String() != e.YOLO.Guess || l.W != e.YOLO.Width || l.H != e.YOLO.Height {
			t.Errorf("yolo row %d: %+v", row, l)
		}
		if want := "every number is within 0..1 and box 0's third number 0.25 < first 0.5 cannot be corners: YOLO centre and size"; l.AutoWhy != want {
			t.Errorf("yolo reason %q, want %q", l.AutoWhy, want)
		}
		checkPlaced(t, "yolo", l, want.CXCYWHN)
	}
}

// TestAlignBoxes: the boxes as the picture shows them through flips and a
// swap of height and width; other axes say why not.
func TestAlignBoxes(t *testing.T) {
	f := decodetest.Open(t, "boxes_yolo.arrow")
	image := decodetest.Column(t, f, "image")
	ten, err := f.Tensor(0, image)
	if err != nil {
		t.Fatal(err)
	}
	b := overlay.Box{Index: 0, X0: 12, Y0: 4, X1: 20, Y1: 12.5}
	for _, c := range []struct {
		name string
		cmd  func(*inspect.Session)
		want overlay.Box
	}{
		{"default", func(*inspect.Session) {}, b},
		{"flip columns", (*inspect.Session).FlipColumns, overlay.Box{X0: 12, Y0: 4, X1: 20, Y1: 12.5}},
		{"flip rows", (*inspect.Session).FlipRows, overlay.Box{X0: 12, Y0: 3.5, X1: 20, Y1: 12}},
		{"swap", (*inspect.Session).SwapAxes, overlay.Box{X0: 4, Y0: 12, X1: 12.5, Y1: 20}},
		{"swap, flip columns", func(s *inspect.Session) { s.SwapAxes(); s.FlipColumns() }, overlay.Box{X0: 3.5, Y0: 12, X1: 12, Y1: 20}},
		{"physical layout", func(s *inspect.Session) { s.SetPhysical(true) }, b},
	} {
		s := inspect.NewSession(ten, 8)
		c.cmd(s)
		got, err := Align([]overlay.Box{b}, 32, 16, s.Shown(), s.View)
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}
	// A box of 12..20 mirrored on 32 columns is 12..20 again: pick another.
	s := inspect.NewSession(ten, 8)
	s.FlipColumns()
	if got, _ := Align([]overlay.Box{{X0: 0, Y0: 0, X1: 4, Y1: 4}}, 32, 16, s.Shown(), s.View); got[0].X0 != 28 || got[0].X1 != 32 {
		t.Errorf("flip columns: %+v", got)
	}
	s.SetAxisX(2)
	if _, err := Align([]overlay.Box{b}, 32, 16, s.Shown(), s.View); err == nil ||
		err.Error() != "the picture shows dimensions 0: H (16) × 2: C (3), and the boxes follow only the image's height and width (0: H (16) × 1: W (32))" {
		t.Errorf("axes H, C: %v", err)
	}
	if _, err := Align([]overlay.Box{b}, 30, 16, inspect.NewSession(ten, 8).Shown(), inspect.NewSession(ten, 8).View); err == nil ||
		err.Error() != "the picture is 16×32 but the boxes were placed on 16×30 (height × width)" {
		t.Errorf("another size: %v", err)
	}
}

// TestDrawBoxes: each box's edge pixels in its colour, the highlighted one
// two pixels wide and drawn last, the rest of the picture as it was; the
// base never changes.
func TestDrawBoxes(t *testing.T) {
	base := image.NewRGBA(image.Rect(0, 0, 32, 24))
	for i := range base.Pix {
		base.Pix[i] = uint8(i)
	}
	orig := slices.Clone(base.Pix)
	boxes := []overlay.Box{
		{Index: 0, X0: 4, Y0: 3, X1: 14, Y1: 11, Category: 0, HasCategory: true},
		{Index: 2, X0: 10, Y0: 6, X1: 20, Y1: 16, Category: 4, HasCategory: true},
	}
	ring := func(r image.Rectangle, t int, x, y int) bool {
		return image.Pt(x, y).In(r) && !image.Pt(x, y).In(r.Inset(t))
	}
	for _, c := range []struct{ w, h, edge int }{{32, 24, 1}, {512, 100, 1}, {513, 100, 2}, {1000, 4000, 8}} {
		if got := Edge(c.w, c.h, 512); got != c.edge {
			t.Errorf("Edge(%d, %d) = %d, want %d", c.w, c.h, got, c.edge)
		}
	}
	for _, edge := range []int{1, 2} {
		for _, hl := range []int{-1, 0, 2} {
			out := Draw(base, boxes, hl, edge)
			if !slices.Equal(base.Pix, orig) {
				t.Fatal("Draw changed its base")
			}
			for y := range 24 {
				for x := range 32 {
					want := base.RGBAAt(x, y)
					order := []int{0, 1}
					if hl == 0 {
						order = []int{1, 0}
					}
					for _, k := range order {
						b := boxes[k]
						w := edge
						if b.Index == hl {
							w = 2 * edge
						}
						if ring(b.PixelRect(32, 24), w, x, y) {
							want = b.Color()
						}
					}
					if got := out.RGBAAt(x, y); got != want {
						t.Fatalf("edge %d, highlight %d: pixel (%d, %d) = %v, want %v", edge, hl, x, y, got, want)
					}
				}
			}
		}
	}
	if c := boxes[0].Color(); c != (color.RGBA{128, 0, 0, 255}) {
		t.Errorf("Coverall's colour %v", c)
	}
}

// TestBoxLabels: labels at the boxes' corners, with ink that reads.
func TestBoxLabels(t *testing.T) {
	boxes := []overlay.Box{{Index: 1, X0: 4, Y0: 3, X1: 10, Category: 4, HasCategory: true}, {Index: 3, X0: 14, Y0: 2, X1: 20}}
	got := Labels(boxes, []string{"a", "b", "c", "d", "Mask"}, 3, 32)
	want := []Label{
		{X: 4, Y: 3, XEnd: 10, Index: 1, Text: "#1 Mask", Color: color.RGBA{128, 0, 128, 255}, Ink: "#fff"},
		{X: 14, Y: 2, XEnd: 20, Right: true, Index: 3, Text: "#3", Color: color.RGBA{128, 0, 0, 255}, Ink: "#fff", Highlight: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%+v, want %+v", got, want)
	}
	for _, c := range []struct {
		c    color.RGBA
		want string
	}{
		{overlay.BoxColor(0), "#fff"}, {overlay.BoxColor(6), "#000"}, {color.RGBA{255, 255, 255, 255}, "#000"},
		{color.RGBA{0, 0, 0, 255}, "#fff"}, {overlay.BoxColor(2), "#000"}, // VOC (128,128,0)
	} {
		if got := inkOn(c.c); got != c.want {
			t.Errorf("inkOn(%v) = %s, want %s", c.c, got, c.want)
		}
	}
	if got := At([]overlay.Box{{Index: 0, X0: 0, Y0: 0, X1: 4, Y1: 4}, {Index: 1, X0: 2, Y0: 2, X1: 8, Y1: 8, Category: 1, HasCategory: true}},
		[]string{"x", "y"}, 10, 10, 3, 3); !slices.Equal(got, []string{"#0", "#1 y"}) {
		t.Errorf("At: %q", got)
	}
}

// TestWithBoxes: the grid's thumbnails get the row's boxes, scaled: the
// Hugging Face image's own-size thumbnail the twin's pixels, a tensor
// image's preview drawn smaller its scaled boxes; the column of boxes
// itself and a row without boxes none.
func TestWithBoxes(t *testing.T) {
	e := readBoxesExpected(t)
	f := decodetest.Open(t, "boxes_hf.arrow")
	cells := make([]summary.Cell, len(f.Fields()))
	for i := range cells {
		cells[i] = summary.In(f, 0, i, 256, 256)
	}
	OnThumbnails(f, 0, cells, [2]int{96, 70})
	img := cells[decodetest.Column(t, f, "image")].Tensor
	var want []summary.Mark
	for _, b := range e.HF.Rows[0].XYWH.Boxes {
		if b.Fate == "drawn" || b.Fate == "clipped" {
			want = append(want, summary.Mark{Rect: image.Rect(b.Pixels.Left, b.Pixels.Top, b.Pixels.Right+1, b.Pixels.Bottom+1), Width: 1})
		}
	}
	for i := range want {
		want[i].Color = overlay.BoxColor([]int64{0, 4, 2}[i])
	}
	if img == nil || !reflect.DeepEqual(img.Boxes, want) || img.BoxesOf != "objects" {
		t.Errorf("hf row 0: %+v, want %+v", img, want)
	}
	for i, c := range cells {
		if i != decodetest.Column(t, f, "image") && c.Tensor != nil && len(c.Tensor.Boxes) > 0 {
			t.Errorf("column %d has boxes", i)
		}
	}
	cells2 := []summary.Cell{{}, summary.In(f, 2, 1, 256, 256), {}, {}, {}}
	OnThumbnails(f, 2, cells2, [2]int{96, 70})
	if len(cells2[1].Tensor.Boxes) != 0 {
		t.Error("null row: boxes")
	}

	y := decodetest.Open(t, "boxes_yolo.arrow")
	cells = make([]summary.Cell, len(y.Fields()))
	for i := range cells {
		cells[i] = summary.In(y, 0, i, 16, 16) // a 32×16 image previewed 16×8
	}
	OnThumbnails(y, 0, cells, [2]int{16, 16})
	img = cells[decodetest.Column(t, y, "image")].Tensor
	if img == nil || img.Preview.Bounds() != image.Rect(0, 0, 16, 8) {
		t.Fatalf("yolo preview %+v", img)
	}
	wantRects := []image.Rectangle{image.Rect(6, 2, 10, 6), image.Rect(10, 5, 16, 8), image.Rect(0, 0, 2, 2)}
	var rects []image.Rectangle
	for _, m := range img.Boxes {
		rects = append(rects, m.Rect)
	}
	if !reflect.DeepEqual(rects, wantRects) {
		t.Errorf("yolo thumbnail boxes %v, want %v", rects, wantRects)
	}
	if bx := cells[decodetest.Column(t, y, "boxes")].Tensor; bx != nil && len(bx.Boxes) > 0 {
		t.Error("the boxes column got boxes")
	}
	// A photo's 256-pixel thumbnail shown in a 96×70 box: edges of 3.
	for _, c := range []struct {
		pw, ph int
		box    [2]int
		edge   int
	}{{256, 192, [2]int{96, 70}, 3}, {32, 24, [2]int{96, 70}, 1}, {200, 50, [2]int{100, 70}, 2}, {64, 64, [2]int{}, 1}} {
		if got := thumbEdge(c.pw, c.ph, c.box); got != c.edge {
			t.Errorf("thumbEdge(%d, %d, %v) = %d, want %d", c.pw, c.ph, c.box, got, c.edge)
		}
	}
}

// layoutsExpected is testdata/boxes_layouts_expected.json (gen_boxes.mjs).
type layoutsExpected struct {
	List struct {
		Width, Height int
		Names         []string
		Rows          []struct {
			Category []*int64
			XYWH     expectedPlacing
		}
	}
	One struct {
		Width, Height int
		Labels        []string
		BBox          []*struct{ XYXY, XYWH expectedPlacing }
		Subject       []*struct {
			Text string
			XYWH expectedPlacing
		}
		Detections []struct {
			Category []int64
			Text     []string
			XYXYN    expectedPlacing
		}
	}
}

// boxLayerOf reads row's boxes of column field over column image.
func boxLayerOf(t *testing.T, f *decode.File, field string, row int64, format overlay.BoxFormat) (Choice, Layer) {
	t.Helper()
	image := decodetest.Column(t, f, "image")
	choices := Choices(f, image)
	i := ChoiceIndex(choices, field)
	if i < 0 {
		t.Fatalf("no boxes %q among %+v", field, choices)
	}
	ten, err := f.Tensor(row, image)
	if err != nil {
		t.Fatal(err)
	}
	h, w, _ := PictureSize(ten)
	return choices[i], Read(f, row, choices[i], w, h, format)
}

// TestBoxLayouts: boxes_list.arrow (datasets 4's list of structs) and
// boxes_one.arrow (one box a row, in metadata's format, a Visual Genome
// struct, a model's detections) read and placed as the twin places them,
// with their formats' reasons, labels and errors.
func TestBoxLayouts(t *testing.T) {
	var e layoutsExpected
	testkit.TestdataJSON(t, "boxes_layouts_expected.json", &e)
	f := decodetest.Open(t, "boxes_list.arrow")
	for row, want := range e.List.Rows {
		c, l := boxLayerOf(t, f, "objects", int64(row), overlay.UnknownFormat)
		if c.Column.Layout != overlay.ListOfStructs || l.Err != "" || l.Format != overlay.XYWH || l.Stated {
			t.Errorf("list row %d: %+v", row, l)
		}
		checkPlaced(t, fmt.Sprint("list row ", row), l, want.XYWH)
		names := Names(f, c)
		if !reflect.DeepEqual(names, e.List.Names) {
			t.Errorf("names %q", names)
		}
		if row == 0 {
			if l.AutoWhy != "box 1's third number 8 < first 20 cannot be corners: COCO xywh" || len(l.Placed.Errors) != 1 || l.Placed.Errors[0].Error() != "box 2: null" {
				t.Errorf("list row 0: %q, %v", l.AutoWhy, l.Placed.Errors)
			}
			var labels []string
			for _, b := range l.Placed.Boxes {
				labels = append(labels, b.Label(names))
			}
			if want := []string{"#0 Coverall", "#1 Mask", "#3 Gloves"}; !reflect.DeepEqual(labels, want) {
				t.Errorf("labels %q", labels)
			}
		}
	}

	f = decodetest.Open(t, "boxes_one.arrow")
	if got := Choices(f, decodetest.Column(t, f, "image")); len(got) != 3 || got[0].Column.Name != "bbox" || got[1].Column.Layout != overlay.OneBox || got[2].Column.Layout != overlay.ListOfStructs {
		t.Errorf("choices %+v", got)
	}
	for row, want := range e.One.BBox {
		_, l := boxLayerOf(t, f, "bbox", int64(row), overlay.UnknownFormat)
		if want == nil {
			if l.Err != "bbox is null in this row" {
				t.Errorf("bbox row %d: %+v", row, l)
			}
			continue
		}
		if l.Format != overlay.XYXY || !l.Stated || l.AutoWhy != `from the file's metadata: field bbox has bbox_format = "pascal_voc"` {
			t.Errorf("bbox row %d: %v %q", row, l.Format, l.AutoWhy)
		}
		checkPlaced(t, fmt.Sprint("bbox row ", row), l, want.XYXY)
		checkPlaced(t, fmt.Sprint("bbox row ", row, " as xywh"), l.In(overlay.XYWH), want.XYWH)
	}
	for row, want := range e.One.Subject {
		_, l := boxLayerOf(t, f, "subject", int64(row), overlay.UnknownFormat)
		if want == nil {
			if l.Err != "subject is null in this row" {
				t.Errorf("subject row %d: %+v", row, l)
			}
			continue
		}
		if l.Format != overlay.XYWH || !l.Stated || l.AutoWhy != "from the box's field names x, y, w, h" {
			t.Errorf("subject row %d: %v %q", row, l.Format, l.AutoWhy)
		}
		checkPlaced(t, fmt.Sprint("subject row ", row), l, want.XYWH)
		if len(l.Placed.Boxes) == 1 && l.Placed.Boxes[0].Label(nil) != "#0 "+want.Text {
			t.Errorf("subject row %d: label %q", row, l.Placed.Boxes[0].Label(nil))
		}
	}
	for row, want := range e.One.Detections {
		c, l := boxLayerOf(t, f, "detections", int64(row), overlay.UnknownFormat)
		if l.Format != overlay.XYXYN || !l.Stated || l.AutoWhy != `from the file's metadata: field detections has bbox_format = "REL_XYXY"` || Names(f, c) != nil {
			t.Errorf("detections row %d: %v %q", row, l.Format, l.AutoWhy)
		}
		checkPlaced(t, fmt.Sprint("detections row ", row), l, want.XYXYN)
		for i, b := range l.Placed.Boxes {
			if b.Label(nil) != fmt.Sprintf("#%d %s", i, want.Text[i]) || !b.HasCategory || b.Category != want.Category[i] {
				t.Errorf("detections row %d: box %+v", row, b)
			}
		}
	}
}
