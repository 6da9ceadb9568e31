//go:build !wasm

package ui

import (
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode/decodetest"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/tensorext"
)

// TestFormatReason: what the inspector says of the format.
func TestFormatReason(t *testing.T) {
	f := decodetest.Open(t, "boxes_hf.arrow")
	img := decodetest.Column(t, f, "image")
	ten, err := f.Tensor(0, img)
	if err != nil {
		t.Fatal(err)
	}
	h, w, _ := boxes.PictureSize(ten)
	l := boxes.Read(f, 0, boxes.Choices(f, img)[0], w, h, overlay.UnknownFormat)
	if got, want := formatReason(l, false), "Format xywh, guessed: the stored areas equal width × height (box 0: 10 × 8 = 80): COCO xywh."; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := formatReason(l.In(overlay.XYXY), true), "Format xyxy, as chosen; the file's would be xywh (guessed: the stored areas equal width × height (box 0: 10 × 8 = 80): COCO xywh)."; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	stated := boxes.Layer{Format: overlay.XYXY, Auto: overlay.XYXY, Stated: true, AutoWhy: `from the file's metadata: field boxes has bbox_format = "pascal_voc"`}
	if got, want := formatReason(stated, false), `Format xyxy, from the file's metadata: field boxes has bbox_format = "pascal_voc".`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	stated.Format = overlay.XYWH
	if got, want := formatReason(stated, true), `Format xywh, as chosen; the file's would be xyxy (from the file's metadata: field boxes has bbox_format = "pascal_voc").`; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestBoxState: the inspector's boxes on boxes_hf.arrow's row 0: drawn by
// default, the format changed and back, none, highlights, the address and
// a link's boxes applied, carried to another row.
func TestBoxState(t *testing.T) {
	f := decodetest.Open(t, "boxes_hf.arrow")
	image := decodetest.Column(t, f, "image")
	ten, err := f.Tensor(0, image)
	if err != nil {
		t.Fatal(err)
	}
	s := inspect.NewSession(ten, 8)
	b := newBoxes(f, 0, image, ten, nil)
	if b.field() != "objects" || b.w != 32 || b.h != 24 || b.layer.Format != overlay.XYWH {
		t.Fatalf("%+v", b)
	}
	addr := func() viewstate.Boxes {
		if a := b.address(); a != nil {
			return *a
		}
		return viewstate.Boxes{}
	}
	if a := addr(); a.Column != nil || a.Format != "" {
		t.Errorf("default address %+v", a)
	}
	img, labels, off := b.picture(s, s.Image)
	if off != "" || img == s.Image || len(labels) != 3 || b.drawn() != 3 {
		t.Errorf("picture: %v %d %q", img == s.Image, len(labels), off)
	}
	if again, _, _ := b.picture(s, s.Image); again != img {
		t.Error("the picture is drawn again for nothing")
	}
	if !b.setHover(1) || b.highlight() != 1 || b.setHover(1) {
		t.Error("hover")
	}
	if lit, labels, _ := b.picture(s, s.Image); lit == img || !labels[1].Highlight {
		t.Error("hover: not drawn again")
	}
	b.togglePin(2)
	b.setHover(-1)
	if b.highlight() != 2 {
		t.Errorf("pinned %d", b.highlight())
	}
	if !b.setFormat(overlay.XYXY) || b.layer.Format != overlay.XYXY || b.highlight() != -1 {
		t.Errorf("xyxy: %+v", b.layer)
	}
	if a := addr(); a.Format != "xyxy" || a.Column != nil {
		t.Errorf("xyxy address %+v", a)
	}
	if _, labels, _ := b.picture(s, s.Image); len(labels) != 1 {
		t.Errorf("xyxy: %d labels", len(labels))
	}
	carried := b.carry()
	if !b.setFormat(overlay.XYWH) || b.format != overlay.UnknownFormat || addr().Format != "" {
		t.Error("back to the guess")
	}
	if !b.choose(-1) || !reflect.DeepEqual(addr(), viewstate.Boxes{Column: ptr("")}) {
		t.Errorf("none: %+v", addr())
	}
	if img, labels, off := b.picture(s, s.Image); img != s.Image || labels != nil || off != "" {
		t.Error("none: drawn")
	}

	// Another row of the column keeps the column and the format chosen.
	ten2, _ := f.Tensor(1, image)
	b2 := newBoxes(f, 1, image, ten2, carried)
	if b2.field() != "objects" || b2.layer.Format != overlay.XYXY || b2.format != overlay.XYXY {
		t.Errorf("carried: %+v", b2.layer)
	}
	// Row 2's boxes are null: say so, draw the picture alone.
	ten3, _ := f.Tensor(2, image)
	b3 := newBoxes(f, 2, image, ten3, nil)
	s3 := inspect.NewSession(ten3, 8)
	if img, _, off := b3.picture(s3, s3.Image); img != s3.Image || off != "No boxes: objects is null in this row." {
		t.Errorf("null row: %q", off)
	}

	// A link's boxes: a format, none, a column that is not one, a format
	// that is not one.
	for _, c := range []struct {
		link   *viewstate.Boxes
		field  string
		format overlay.BoxFormat
		note   string
	}{
		{nil, "objects", overlay.UnknownFormat, ""},
		{&viewstate.Boxes{Format: "voc"}, "objects", overlay.XYXY, ""},
		{&viewstate.Boxes{Column: ptr("objects"), Format: "cxcywh"}, "objects", overlay.CXCYWH, ""},
		{&viewstate.Boxes{Column: ptr("")}, "", overlay.UnknownFormat, ""},
		{&viewstate.Boxes{Column: ptr("width"), Format: "polygon"}, "objects", overlay.UnknownFormat,
			"The link's boxes “width” are no column of boxes of this image. The link's box format “polygon” is none this page knows."},
	} {
		b := newBoxes(f, 0, image, ten, nil)
		b.restore(c.link)
		if b.field() != c.field || b.format != c.format || b.note != c.note {
			t.Errorf("link %+v: %q %v %q", c.link, b.field(), b.format, b.note)
		}
	}
	// A tensor that is no picture offers no boxes.
	vals, _, _ := array.FromJSON(memory.DefaultAllocator, arrow.PrimitiveTypes.Float32, strings.NewReader("[1, 2, 3, 4]"))
	defer vals.Release()
	if b := newBoxes(f, 0, image, tensorext.Tensor{Shape: []int{4}, Strides: []int{1}, Values: vals}, nil); len(b.choices) != 0 || b.chosen != -1 {
		t.Errorf("no picture: %+v", b)
	}
}

// TestInspectorBoxesLink: the inspector mounted on a link's boxes applies
// them and reports them back.
func TestInspectorBoxesLink(t *testing.T) {
	f := decodetest.Open(t, "boxes_hf.arrow")
	e := app.NewTestEngine()
	link := &viewstate.Inspector{Field: "image", Boxes: &viewstate.Boxes{Format: "xyxy"}}
	in := &Inspector{File: f, Col: decodetest.Column(t, f, "image"), Row: 0, Restore: link}
	if err := e.Load(in); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if in.bx == nil || in.bx.field() != "objects" || in.bx.layer.Format != overlay.XYXY {
		t.Fatalf("boxes %+v", in.bx)
	}
	if st := in.bx.address(); st == nil || st.Format != "xyxy" || st.Column != nil {
		t.Errorf("reported %+v", st)
	}
}

// ptr is a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }

// TestBoxProbe: the readout names every box under the pointer.
func TestBoxProbe(t *testing.T) {
	if got := (boxProbe{boxes: []overlay.Box{{Index: 0, X0: 0, Y0: 0, X1: 4, Y1: 4}, {Index: 1, X0: 2, Y0: 2, X1: 8, Y1: 8, Category: 1, HasCategory: true}},
		names: []string{"x", "y"}, w: 10, h: 10}).text(3, 3); got != "in #0, #1 y" {
		t.Errorf("probe: %q", got)
	}
}
