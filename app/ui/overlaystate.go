package ui

import (
	"image"
	"maps"
	"math"
	"slices"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/tensorext"
)

// overlayState is the inspector's overlay on one tensor: the masks offered
// over it, the one drawn (read for the row) and its style, and the last
// picture blended. Its commands return whether anything changed. Plain Go:
// the inspector's components show snapshots of it (OverlayControls,
// Legend, SliceView's probe).
type overlayState struct {
	f       *decode.File
	row     int64
	image   int
	cols    []overlay.Column
	choices []masks.Choice
	def     int // the default choice, -1 for none
	chosen  int // the choice drawn, -1 for none
	style   overlay.Style
	layer   masks.Layer
	// note says why a link's overlay= was not applied.
	note string
	ver  int // bumped by every change of what is drawn

	// The last picture blended, for base at version ver.
	base    *image.RGBA
	baseVer int
	out     *image.RGBA
	mask    tensorext.Tensor
	off     string
}

// newOverlay finds the masks offered over column image of row and draws
// the default one, in style (DefaultStyle's when it has no Hidden map: a
// new inspector; the style a user chose is kept from row to row).
func newOverlay(f *decode.File, row int64, image int, style overlay.Style) *overlayState {
	if style.Hidden == nil {
		style = overlay.DefaultStyle()
	}
	o := &overlayState{f: f, row: row, image: image, style: style, chosen: -1}
	o.cols = masks.RowColumns(f, row)
	o.choices, o.def = masks.Choices(o.cols, image)
	o.choose(o.def)
	return o
}

// choose draws choice i (-1: none).
func (o *overlayState) choose(i int) bool {
	if i < -1 || i >= len(o.choices) || (i == o.chosen && o.ver > 0) {
		return false
	}
	o.chosen, o.layer, o.note = i, masks.Layer{}, ""
	if i >= 0 {
		o.layer = masks.Read(o.f, o.row, o.cols, o.image, o.choices[i].Col, o.style.Threshold)
	}
	o.ver++
	return true
}

// restore applies a link's overlay: field "" for none, else a column
// offered; a field offered nowhere leaves the default and says so.
func (o *overlayState) restore(field string) {
	if field == "" {
		o.choose(-1)
		return
	}
	if i := masks.ChoiceIndex(o.choices, field); i >= 0 {
		o.choose(i)
		return
	}
	o.note = "The link's overlay " + quote(field) + " is no mask of this image."
}

// quote is s in typographic quotes.
func quote(s string) string { return "“" + s + "”" }

// field is the column drawn, "" for none.
func (o *overlayState) field() string {
	if o.chosen < 0 {
		return ""
	}
	return o.choices[o.chosen].Field
}

// address is the overlay for the address: the field drawn ("" for none)
// unless none is drawn and none is offered by default, and the parts of
// its style that are not the default's; nil when none of them.
func (o *overlayState) address() *viewstate.Mask {
	if o.chosen < 0 && o.def < 0 {
		return nil
	}
	field := o.field()
	m := &viewstate.Mask{Column: &field}
	if o.chosen < 0 {
		return m
	}
	def := overlay.DefaultStyle()
	if pct := int(math.Round(o.style.Opacity * 100)); pct != int(def.Opacity*100) {
		m.Opacity = &pct
	}
	m.Outline = o.style.Outline
	// hide= lists every class hidden, void included, when that is not the
	// default: class 0, and 255 when it is void.
	if hidden := o.drawStyle().Hidden; !maps.Equal(hidden, def.For(o.layer.Void).Hidden) {
		ids := append([]int64{}, slices.Sorted(maps.Keys(hidden))...)
		m.Hidden = &ids
	}
	return m
}

// linkStyle is s with the parts of a link's style it gives. A link's hide=
// lists every class hidden: void is shown unless it lists 255.
func linkStyle(s overlay.Style, r *viewstate.Mask) overlay.Style {
	if s.Hidden == nil {
		s = overlay.DefaultStyle()
	}
	if r.Opacity != nil {
		s.Opacity = float64(*r.Opacity) / 100
	}
	s.Outline = r.Outline
	if r.Hidden != nil {
		s.Hidden = map[int64]bool{}
		for _, id := range *r.Hidden {
			s.Hidden[id] = true
		}
		s.ShowVoid = !s.Hidden[overlay.VoidID]
	}
	return s
}

// drawStyle is the style the mask drawn is blended and listed with: its
// void hidden unless shown (overlay.Style.For).
func (o *overlayState) drawStyle() overlay.Style { return o.style.For(o.layer.Void) }

// setOpacity sets α, 0..1.
func (o *overlayState) setOpacity(a float64) bool {
	if a < 0 || a > 1 || a != a || a == o.style.Opacity {
		return false
	}
	o.style.Opacity = a
	o.ver++
	return true
}

// setOutline draws outlines only (true) or filled classes.
func (o *overlayState) setOutline(on bool) bool {
	if on == o.style.Outline {
		return false
	}
	o.style.Outline = on
	o.ver++
	return true
}

// toggleClass hides a class shown, or shows a class hidden; the void of a
// mask that has one is shown or hidden again through ShowVoid.
func (o *overlayState) toggleClass(id int64) bool {
	hidden := maps.Clone(o.style.Hidden)
	if hidden == nil {
		hidden = map[int64]bool{}
	}
	switch {
	case o.layer.Void && id == overlay.VoidID:
		o.style.ShowVoid = o.drawStyle().Hidden[id]
		delete(hidden, id)
	case hidden[id]:
		delete(hidden, id)
	default:
		hidden[id] = true
	}
	o.style.Hidden = hidden
	o.ver++
	return true
}

// legend lists the classes present in the mask drawn.
func (o *overlayState) legend() []overlay.LegendItem {
	if o.chosen < 0 || o.layer.Mask.Values == nil {
		return nil
	}
	return o.style.Legend(o.layer.Counts, o.layer.Names, o.layer.Void)
}

// unnamed are the classes of the mask drawn that the file's names do not
// name (overlay.Unnamed).
func (o *overlayState) unnamed() []int64 {
	if o.chosen < 0 {
		return nil
	}
	return overlay.Unnamed(o.layer.Counts, o.layer.Names, o.layer.Void)
}

// picture returns the session's picture with the mask blended in (the
// picture itself when none is drawn or it cannot be), the mask's view
// over it (for the readout; empty when not drawn) and why it is not drawn
// ("" when it is, or when none is chosen).
func (o *overlayState) picture(s *inspect.Session) (img *image.RGBA, mask tensorext.Tensor, off string) {
	if s.Image == nil || o.chosen < 0 {
		return s.Image, tensorext.Tensor{}, ""
	}
	if s.Image == o.base && o.ver == o.baseVer {
		return o.out, o.mask, o.off
	}
	o.base, o.baseVer = s.Image, o.ver
	o.out, o.mask, o.off = s.Image, tensorext.Tensor{}, ""
	m, err := masks.Align(o.layer, s.Shown(), s.View)
	if err == nil {
		var out *image.RGBA
		if out, err = masks.Blend(s.Image, m, o.drawStyle()); err == nil {
			o.out, o.mask = out, m
		}
	}
	if err != nil {
		o.off = "No overlay: " + err.Error() + "."
	}
	return o.out, o.mask, o.off
}
