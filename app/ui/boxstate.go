package ui

import (
	"image"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/boxes"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/tensorext"
)

// boxState is the inspector's detection boxes over one picture: the
// columns of boxes offered, the one drawn (read for the row) and its
// format, the box highlighted, and the last picture drawn. Its commands
// return whether anything changed. Plain Go: the inspector's components
// show snapshots of it (BoxControls, BoxList, SliceView's labels).
type boxState struct {
	f       *decode.File
	row     int64
	w, h    int // the image's width and height; 0 when the tensor is no picture
	choices []boxes.Choice
	def     int               // the choice drawn by default: 0, or -1 when none is offered
	chosen  int               // the choice drawn, -1 for none
	format  overlay.BoxFormat // the user's format, UnknownFormat for the automatic one
	layer   boxes.Layer
	names   []string // layer's class names
	hover   int      // the box under the pointer or focus in the list, -1 for none
	pinned  int      // the box pressed in the list, -1 for none
	note    string   // why a link's boxes= or boxfmt= was not applied
	ver     int      // bumped by every change of what is drawn

	// The last picture drawn, for base at version ver.
	base    *image.RGBA
	baseVer int
	out     *image.RGBA
	shown   []overlay.Box // the boxes in picture pixels
	pw, ph  int           // the picture's size
	off     string
}

// boxCarry is what the boxes keep from one row of a column to the next:
// the column drawn and the format the user chose for it.
type boxCarry struct {
	field  string
	format overlay.BoxFormat
}

// newBoxes finds the columns of boxes of column image's file and draws the
// first over the row's picture t (none when t is no picture), or the one
// carried from another row of the column, in its format.
func newBoxes(f *decode.File, row int64, image int, t tensorext.Tensor, carry *boxCarry) *boxState {
	b := &boxState{f: f, row: row, def: -1, chosen: -1, hover: -1, pinned: -1}
	h, w, ok := boxes.PictureSize(t)
	if !ok || w <= 0 || h <= 0 {
		return b
	}
	b.w, b.h = w, h
	b.choices = boxes.Choices(f, image)
	if len(b.choices) > 0 {
		b.def = 0
	}
	i := b.def
	if carry != nil {
		i = boxes.ChoiceIndex(b.choices, carry.field)
		b.format = carry.format
	}
	b.choose(i)
	return b
}

// carry is what the next row of the column keeps.
func (b *boxState) carry() *boxCarry {
	if b == nil || b.w == 0 {
		return nil
	}
	return &boxCarry{field: b.field(), format: b.format}
}

// choose draws choice i (-1: none) in the format chosen.
func (b *boxState) choose(i int) bool {
	if i < -1 || i >= len(b.choices) || (i == b.chosen && b.ver > 0) {
		return false
	}
	if i != b.chosen && b.ver > 0 {
		b.format = overlay.UnknownFormat // another column: its own format
	}
	b.chosen, b.layer, b.names, b.note, b.hover, b.pinned = i, boxes.Layer{}, nil, "", -1, -1
	if i >= 0 {
		c := b.choices[i]
		b.layer = boxes.Read(b.f, b.row, c, b.w, b.h, b.format)
		b.names = boxes.Names(b.f, c)
	}
	b.ver++
	return true
}

// setFormat places the boxes in format f; the automatic format forgets
// the user's choice.
func (b *boxState) setFormat(f overlay.BoxFormat) bool {
	if b.chosen < 0 || f == overlay.UnknownFormat {
		return false
	}
	if f == b.layer.Auto {
		f = overlay.UnknownFormat
	}
	if f == b.format {
		return false
	}
	b.format, b.hover, b.pinned = f, -1, -1
	b.layer = b.layer.In(f)
	b.ver++
	return true
}

// setHover highlights box i (-1: none) while the pointer or the focus is
// on its item.
func (b *boxState) setHover(i int) bool {
	if i == b.hover {
		return false
	}
	b.hover = i
	b.ver++
	return true
}

// togglePin keeps box i highlighted, or stops.
func (b *boxState) togglePin(i int) bool {
	if b.pinned == i {
		b.pinned = -1
	} else {
		b.pinned = i
	}
	b.ver++
	return true
}

// highlight is the box highlighted: the one hovered or focused, else the
// one pinned; -1 for none.
func (b *boxState) highlight() int {
	if b.hover >= 0 {
		return b.hover
	}
	return b.pinned
}

// field is the column drawn, "" for none.
func (b *boxState) field() string {
	if b.chosen < 0 {
		return ""
	}
	return b.choices[b.chosen].Column.Name
}

// restore applies a link's boxes: a column offered, "" for none, and the
// format chosen (nil: none); what does not apply leaves the default and says so.
func (b *boxState) restore(r *viewstate.Boxes) {
	if r == nil {
		r = &viewstate.Boxes{}
	}
	note := ""
	if r.Column != nil {
		switch i := boxes.ChoiceIndex(b.choices, *r.Column); {
		case *r.Column == "":
			b.choose(-1)
		case i >= 0:
			b.choose(i)
		default:
			note = "The link's boxes " + quote(*r.Column) + " are no column of boxes of this image."
		}
	}
	if r.Format != "" {
		f, ok := overlay.ParseBoxFormat(r.Format)
		switch {
		case !ok:
			note = joinSentences(note, "The link's box format "+quote(r.Format)+" is none this page knows.")
		case b.chosen >= 0:
			b.setFormat(f)
		}
	}
	b.note = note
}

// address is the boxes for the address: the column drawn when it is not
// the default one, and the format the user chose; nil when neither.
func (b *boxState) address() *viewstate.Boxes {
	var a viewstate.Boxes
	if b.chosen != b.def {
		c := b.field()
		a.Column = &c
	}
	if b.chosen >= 0 && b.format != overlay.UnknownFormat {
		a.Format = b.format.String()
	}
	if a == (viewstate.Boxes{}) {
		return nil
	}
	return &a
}

// picture returns base (the session's picture, with its mask if any) with
// the boxes drawn, and their labels; base itself, and why the boxes are
// not drawn, when they cannot be ("" when none is chosen).
func (b *boxState) picture(s *inspect.Session, base *image.RGBA) (img *image.RGBA, labels []boxes.Label, off string) {
	if base == nil || b.chosen < 0 {
		return base, nil, ""
	}
	if base != b.base || b.ver != b.baseVer {
		b.base, b.baseVer = base, b.ver
		b.out, b.shown, b.off = base, nil, ""
		var err error
		switch {
		case b.layer.Err != "":
			b.off = "No boxes: " + b.layer.Err + "."
		default:
			b.shown, err = boxes.Align(b.layer.Placed.Boxes, b.w, b.h, s.Shown(), s.View)
			if err != nil {
				b.off = "No boxes: " + err.Error() + "."
				break
			}
			b.out = boxes.Draw(base, b.shown, b.highlight(), boxes.Edge(b.w, b.h, sliceBox))
			bd := base.Bounds()
			b.pw, b.ph = bd.Dx(), bd.Dy()
		}
	}
	if b.off != "" {
		return base, nil, b.off
	}
	return b.out, boxes.Labels(b.shown, b.names, b.highlight(), b.pw), ""
}

// drawn is the number of boxes on the picture (after picture).
func (b *boxState) drawn() int {
	if b.off != "" || b.chosen < 0 {
		return 0
	}
	return len(b.shown)
}

// probe is what the readout needs to name the boxes under the pointer.
func (b *boxState) probe() boxProbe {
	if b.drawn() == 0 {
		return boxProbe{}
	}
	return boxProbe{boxes: b.shown, names: b.names, w: b.pw, h: b.ph}
}

// boxProbe names the boxes drawn under a picture pixel.
type boxProbe struct {
	boxes []overlay.Box
	names []string
	w, h  int
}

// text is the readout of picture pixel (x, y): "in #0 Coverall", "" when
// no box holds it.
func (p boxProbe) text(x, y int) string {
	at := boxes.At(p.boxes, p.names, p.w, p.h, x, y)
	if len(at) == 0 {
		return ""
	}
	s := "in " + at[0]
	for _, l := range at[1:] {
		s += ", " + l
	}
	return s
}
