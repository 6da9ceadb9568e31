package boxes

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/app/raster"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/tensorext"
)

// Choice is a column of boxes that can be drawn over a picture.
type Choice struct {
	Col    int
	Column overlay.BoxColumn
}

// Choices returns the columns of f that hold detection boxes
// (overlay.FindBoxes), in schema order, but not column skip (the picture's
// own; -1 for none).
func Choices(f *decode.File, skip int) []Choice {
	var out []Choice
	for i, fld := range f.Schema.Fields() {
		if i == skip {
			continue
		}
		if c, ok := overlay.FindBoxes(fld); ok {
			out = append(out, Choice{Col: i, Column: c})
		}
	}
	return out
}

// ChoiceIndex returns the index of the choice of column field, or -1.
func ChoiceIndex(choices []Choice, field string) int {
	for i, c := range choices {
		if c.Column.Name == field {
			return i
		}
	}
	return -1
}

// Formats are the formats the inspector offers, in order, with their
// labels.
var Formats = []struct {
	Format overlay.BoxFormat
	Label  string
}{
	{overlay.XYWH, "xywh: corner, width, height in pixels (COCO)"},
	{overlay.XYXY, "xyxy: two corners in pixels (Pascal VOC)"},
	{overlay.CXCYWHN, "cxcywhn: centre and size, normalised (YOLO)"},
	{overlay.XYXYN, "xyxyn: two corners, normalised"},
	{overlay.CXCYWH, "cxcywh: centre and size in pixels"},
}

// Layer is one row's boxes of a column, placed on a width×height image.
type Layer struct {
	Col   int
	Field string
	// Names are the boxes' class names the file gives (nil: none).
	Names []string
	Raw   []overlay.RawBox
	W, H  int
	// Auto is the format the file states (Stated) or else the guess, and
	// AutoWhy why; Format is the format the boxes are placed in: Auto, or
	// the one the user chose.
	Auto    overlay.BoxFormat
	AutoWhy string
	Stated  bool
	Format  overlay.BoxFormat
	Placed  overlay.Placed
	// Err says why the row's boxes cannot be placed; the rest is then
	// empty but for Col, Field and Names.
	Err string
}

// Read reads the boxes of choice c in row and places them on a w×h
// image in format chosen (overlay.UnknownFormat: the one the file states,
// else the guess). Names are left for the caller (Names).
func Read(f *decode.File, row int64, c Choice, w, h int, chosen overlay.BoxFormat) Layer {
	name := c.Column.Name
	l := Layer{Col: c.Col, Field: name, W: w, H: h}
	v, err := f.Value(row, c.Col)
	switch {
	case err != nil:
		l.Err = fmt.Sprintf("%s: %v", name, err)
		return l
	case v.Array.IsNull(v.Index):
		l.Err = name + " is null in this row"
		return l
	}
	raw, err := overlay.ReadBoxes(c.Column, v.Array, v.Index)
	if err != nil {
		l.Err = strings.TrimPrefix(err.Error(), "overlay: ")
		return l
	}
	l.Raw = raw
	if f, why := c.Column.StatedFormat(raw); f != overlay.UnknownFormat {
		l.Auto, l.AutoWhy, l.Stated = f, why, true
	} else {
		l.Auto, l.AutoWhy = overlay.GuessBoxFormat(raw, w, h)
	}
	return l.In(chosen)
}

// In is l with its boxes placed in format f (overlay.UnknownFormat: Auto).
func (l Layer) In(f overlay.BoxFormat) Layer {
	if l.Raw == nil && l.Err != "" {
		return l
	}
	if f == overlay.UnknownFormat {
		f = l.Auto
	}
	l.Format, l.Err = f, ""
	p, err := overlay.Place(l.Raw, f, l.W, l.H)
	if err != nil {
		l.Placed, l.Err = overlay.Placed{}, strings.TrimPrefix(err.Error(), "overlay: ")
		return l
	}
	l.Placed = p
	return l
}

// Names returns the class names of choice c's categories that the file
// gives (Hugging Face ClassLabel names: overlay.SchemaClassNames), or nil.
func Names(f *decode.File, c Choice) []string {
	if p := c.Column.CategoryPath(); p != "" {
		return overlay.SchemaClassNames(f.Schema.Metadata(), p)
	}
	return nil
}

// PictureSize returns the height and width of the image t shows (its
// logical view; picture.Find), ok false when it is no picture.
func PictureSize(t tensorext.Tensor) (h, w int, ok bool) {
	l := t.Logical()
	a, ok := picture.Find(l.Shape, l.DimNames, t.ValueType())
	if !ok {
		return 0, 0, false
	}
	return l.Shape[a.H], l.Shape[a.W], true
}

// Align returns boxes placed on a w×h image as the picture v selects
// from shown (the inspected tensor as displayed) draws them: in picture
// pixels, through the view's swap of height and width and its flips. It
// returns why not when the picture's rows and columns are not the image's
// height and width.
func Align(boxes []overlay.Box, w, h int, shown tensorext.Tensor, v inspect.View) ([]overlay.Box, error) {
	a, ok := picture.Find(shown.Shape, shown.DimNames, shown.ValueType())
	if !ok {
		return nil, errors.New("the picture has no height and width to lay the boxes on")
	}
	if ih, iw := shown.Shape[a.H], shown.Shape[a.W]; ih != h || iw != w {
		return nil, fmt.Errorf("the picture is %d×%d but the boxes were placed on %d×%d (height × width)", ih, iw, h, w)
	}
	swap := false
	switch {
	case v.Y == a.H && v.X == a.W:
	case v.Y == a.W && v.X == a.H:
		swap = true
	default:
		return nil, fmt.Errorf("the picture shows dimensions %s × %s, and the boxes follow only the image's height and width (%s × %s)",
			inspect.DimLabel(shown, v.Y), inspect.DimLabel(shown, v.X), inspect.DimLabel(shown, a.H), inspect.DimLabel(shown, a.W))
	}
	pw, ph := float64(w), float64(h)
	if swap {
		pw, ph = ph, pw
	}
	out := make([]overlay.Box, len(boxes))
	for i, b := range boxes {
		if swap {
			b.X0, b.Y0, b.X1, b.Y1 = b.Y0, b.X0, b.Y1, b.X1
		}
		if v.FlipX {
			b.X0, b.X1 = pw-b.X1, pw-b.X0
		}
		if v.FlipY {
			b.Y0, b.Y1 = ph-b.Y1, ph-b.Y0
		}
		out[i] = b
	}
	return out, nil
}

// Edge is how wide the inspector draws the edges of boxes on a w×h
// picture, in its pixels: one pixel, or as many as the picture shrinks
// into one CSS pixel at zoom 1 (box CSS pixels for its larger side),
// so that a photo's boxes do not vanish when it is drawn smaller. The box
// highlighted is twice as wide.
func Edge(w, h, box int) int {
	return max(1, (max(w, h)+box-1)/box)
}

// Draw returns a copy of base with boxes (in picture pixels) drawn in
// their colours, in order, edge pixels wide; the box of index highlight
// (-1: none) last and 2·edge wide. base is left as it is.
func Draw(base *image.RGBA, boxes []overlay.Box, highlight, edge int) *image.RGBA {
	out := &image.RGBA{Pix: slices.Clone(base.Pix), Stride: base.Stride, Rect: base.Rect}
	lit := -1
	for i, b := range boxes {
		if b.Index == highlight {
			lit = i
			continue
		}
		overlay.DrawBox(out, b, b.Color(), edge)
	}
	if lit >= 0 {
		overlay.DrawBox(out, boxes[lit], boxes[lit].Color(), 2*edge)
	}
	return out
}

// Label is a text drawn over the picture at a point of it (picture
// pixels): a box's label at its top left corner (X, Y), or, for a box in
// the right half of the picture, ending at its top right corner (Right,
// XEnd), so that it stays on the picture.
type Label struct {
	X, Y      float64
	XEnd      float64
	Right     bool
	Index     int
	Text      string
	Color     color.RGBA // the box's colour, the label's background
	Ink       string     // the text's colour: "#fff" or "#000", whichever reads better on Color
	Highlight bool
}

// Labels returns the labels of boxes (in picture pixels, on a picture
// pw pixels wide) with names.
func Labels(boxes []overlay.Box, names []string, highlight, pw int) []Label {
	out := make([]Label, len(boxes))
	for i, b := range boxes {
		c := b.Color()
		out[i] = Label{X: b.X0, Y: b.Y0, XEnd: b.X1, Right: b.X0+b.X1 > float64(pw), Index: b.Index, Text: b.Label(names),
			Color: c, Ink: inkOn(c), Highlight: b.Index == highlight}
	}
	return out
}

// inkOn returns the text colour that contrasts more with background c:
// white or black, by WCAG 2's contrast ratio of relative luminances.
func inkOn(c color.RGBA) string {
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	l := 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
	if 1.05/(l+0.05) >= (l+0.05)/0.05 {
		return "#fff"
	}
	return "#000"
}

// At returns the labels of the boxes (in picture pixels) whose
// pixels hold picture pixel (x, y), for the readout.
func At(boxes []overlay.Box, names []string, pw, ph, x, y int) []string {
	var out []string
	for _, b := range boxes {
		if image.Pt(x, y).In(b.PixelRect(pw, ph)) {
			out = append(out, b.Label(names))
		}
	}
	return out
}

// OnThumbnails adds to the image cells of a row (cells, as summary.In gives
// them for row of f) the boxes of the file's first column of boxes, placed
// on each image in the format the file states or the guess for the row,
// and scaled to its thumbnail (summary.Tensor.Boxes), their edges as wide
// as the thumbnail shrinks into a pixel of the box it shows in (box, in
// device pixels; zero: unknown). A column of boxes is not an image of its
// own, and a row whose boxes cannot be read gets none.
func OnThumbnails(f *decode.File, row int64, cells []summary.Cell, box [2]int) {
	choices := Choices(f, -1)
	if len(choices) == 0 {
		return
	}
	c := choices[0]
	isBoxes := map[int]bool{}
	for _, ch := range choices {
		isBoxes[ch.Col] = true
	}
	for i := range cells {
		t := cells[i].Tensor
		if t == nil || isBoxes[i] {
			continue
		}
		w, h, pw, ph, ok := ThumbGeometry(t)
		if !ok {
			continue
		}
		l := Read(f, row, c, w, h, overlay.UnknownFormat)
		if l.Err != "" {
			continue
		}
		shown := *t
		shown.Boxes, shown.BoxesOf = thumbMarks(l.Placed.Boxes, w, h, pw, ph, thumbEdge(pw, ph, box)), c.Column.Name
		cells[i].Tensor = &shown
	}
}

// ThumbGeometry returns the size of the image a cell shows (w×h) and of
// its thumbnail (pw×ph): an encoded image's header and thumbnail, or a
// tensor's picture (picture.Find on its logical shape) and preview; ok is
// false for a cell without a picture.
func ThumbGeometry(t *summary.Tensor) (w, h, pw, ph int, ok bool) {
	switch {
	case t.Image != nil:
		return t.Image.Info.Width, t.Image.Info.Height, t.Image.PreviewW, t.Image.PreviewH, t.Image.PreviewW > 0 && t.Image.PreviewH > 0
	case t.Preview == nil || t.PreviewKind == raster.Strip:
		return 0, 0, 0, 0, false
	}
	// The value type only decides whether the tensor may be a picture,
	// which its preview already says: any type Find accepts for images.
	a, found := picture.Find(t.LogicalShape, t.LogicalDimNames, arrow.PrimitiveTypes.Float32)
	if !found {
		return 0, 0, 0, 0, false
	}
	b := t.Preview.Bounds()
	return t.LogicalShape[a.W], t.LogicalShape[a.H], b.Dx(), b.Dy(), true
}

// thumbEdge is how wide boxes' edges are on a pw×ph thumbnail shown
// within box (device pixels): one pixel, or as many as it shrinks into one
// (an encoded image's thumbnail is up to raster.MaxPreviewSide pixels a
// side whatever the box).
func thumbEdge(pw, ph int, box [2]int) int {
	if box[0] <= 0 || box[1] <= 0 {
		return 1
	}
	shrink := math.Max(float64(pw)/float64(box[0]), float64(ph)/float64(box[1]))
	return max(1, int(math.Ceil(shrink-1e-9)))
}

// thumbMarks scales boxes placed on a w×h image to a pw×ph thumbnail:
// each one's corners scaled, then the pixels it covers there
// (overlay.Box.PixelRect), in its colour, edge pixels wide.
func thumbMarks(boxes []overlay.Box, w, h, pw, ph, edge int) []summary.Mark {
	sx, sy := float64(pw)/float64(w), float64(ph)/float64(h)
	out := make([]summary.Mark, 0, len(boxes))
	for _, b := range boxes {
		s := b
		s.X0, s.X1, s.Y0, s.Y1 = b.X0*sx, b.X1*sx, b.Y0*sy, b.Y1*sy
		out = append(out, summary.Mark{Rect: s.PixelRect(pw, ph), Color: b.Color(), Width: edge})
	}
	return out
}
