package ui

import (
	"image"
	"math"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/ui/inspector/compare"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/tensorext"
)

// compareState is the inspector's comparison of its tensor (A) with another
// (B): the choices offered, B, the tolerance, side by side or swiped, A − B
// and the last pictures drawn. Its commands return whether anything
// changed. Plain Go: the inspector's components show snapshots of it
// (CompareControls, DiffStats, the panes' SliceViews).
type compareState struct {
	f       *decode.File
	rows    int64
	a       compare.Side
	at      tensorext.Tensor // A as read
	choices []compare.Choice
	b       compare.Side // Col -1: no comparison
	tol     float64
	swipe   int    // the swipe's split in percent, -1: side by side
	note    string // why a link's vs= did not apply
	cmp     compare.Comparison
	ver     int // bumped by every change of B or the tolerance

	pics    comparePictures
	picFor  *image.RGBA // the session's picture pics were drawn for
	picVer  int
	picSwip int
}

// comparePictures are the pictures of one view: A and B on one colour scale
// (Range), A − B (on Diff.Range()), and A and B swiped when asked.
type comparePictures struct {
	Range   inspect.Range
	A, B, D *image.RGBA
	Swiped  *image.RGBA
	Err     string
}

// newCompare offers what column col's tensor t of row can be compared with
// (cols from masks.RowColumns); nothing is compared yet.
func newCompare(f *decode.File, row int64, col int, t tensorext.Tensor, cols []overlay.Column) *compareState {
	rows, _ := f.Rows()
	c := &compareState{f: f, rows: rows, a: compare.Side{Field: f.Fields()[col].Name, Col: col, Row: row}, at: t,
		b: compare.Side{Col: -1}, swipe: -1}
	c.choices = compare.Choices(cols, col, rows)
	return c
}

// on reports whether a B is chosen.
func (c *compareState) on() bool { return c != nil && c.b.Col >= 0 }

// ok reports whether A − B is there to show.
func (c *compareState) ok() bool { return c.on() && c.cmp.Problem == "" }

// choose compares with column col (-1: nothing) in the same row, or for
// A's own column in the next row (the one before for the last).
func (c *compareState) choose(col int) bool {
	if col < -1 || col >= len(c.f.Fields()) || col == c.b.Col {
		return false
	}
	c.note = ""
	if col < 0 {
		c.b = compare.Side{Col: -1}
		c.ver++
		return true
	}
	row := c.a.Row
	if col == c.a.Col {
		row = compare.OtherRow(c.a.Row, c.rows)
	}
	return c.set(compare.Side{Field: c.f.Fields()[col].Name, Col: col, Row: row})
}

// setRow compares with B's column in another row.
func (c *compareState) setRow(row int64) bool {
	if !c.on() || row < 0 || row == c.b.Row {
		return false
	}
	b := c.b
	b.Row = row
	return c.set(b)
}

// setTol counts as differing the elements whose |A − B| exceeds tol.
func (c *compareState) setTol(tol float64) bool {
	if tol < 0 || math.IsNaN(tol) || math.IsInf(tol, 0) || tol == c.tol {
		return false
	}
	c.tol = tol
	if c.on() {
		c.compute()
	}
	return true
}

// setSwipe shows A and B swiped at pct percent (0..100), or side by side
// (-1).
func (c *compareState) setSwipe(pct int) bool {
	if pct < -1 || pct > 100 || pct == c.swipe {
		return false
	}
	c.swipe = pct
	return true
}

// set compares with b.
func (c *compareState) set(b compare.Side) bool {
	c.b = b
	c.compute()
	return true
}

func (c *compareState) compute() {
	c.cmp = compare.Pair(c.f, c.at, c.a, c.b, c.tol)
	c.ver++
}

// restore applies a link's comparison (nil: none): vs= a column of the
// file (any row), its tolerance and swipe.
func (c *compareState) restore(r *viewstate.Compare) {
	if r == nil || r.Field == "" {
		return
	}
	c.tol = r.Tol
	if r.Swipe != nil {
		c.swipe = *r.Swipe
	}
	for i, fld := range c.f.Fields() {
		if fld.Name == r.Field {
			c.set(compare.Side{Field: fld.Name, Col: i, Row: r.Row})
			return
		}
	}
	c.note = "The link compares with " + quote(r.Field) + ", which is no column of this file."
}

// address is the comparison for the address, nil when there is none.
func (c *compareState) address() *viewstate.Compare {
	if !c.on() {
		return nil
	}
	a := &viewstate.Compare{Field: c.b.Field, Row: c.b.Row, Tol: c.tol}
	if c.swipe >= 0 {
		swipe := c.swipe
		a.Swipe = &swipe
	}
	return a
}

// choice is the index in choices of what is compared (-1: nothing).
func (c *compareState) choice() int {
	for i, ch := range c.choices {
		if ch.Col == c.b.Col {
			return i
		}
	}
	return -1
}

// pictures draws A, B and A − B in the session's view (A's picture as the
// session drew it says which), the last ones kept.
func (c *compareState) pictures(s *inspect.Session) comparePictures {
	if !c.ok() || s.Image == nil || s.Physical {
		return comparePictures{}
	}
	if s.Image == c.picFor && c.ver == c.picVer && c.swipe == c.picSwip {
		return c.pics
	}
	c.picFor, c.picVer, c.picSwip = s.Image, c.ver, c.swipe
	cm, _ := inspect.ColormapByName(s.Colormap)
	a, v := s.Shown(), s.View
	p := comparePictures{Range: compare.Range(a, c.cmp.B, v, s.RangeMode, s.Manual, cm)}
	var err error
	if p.A, err = inspect.Render(a, v, cm, p.Range); err == nil {
		if p.B, err = inspect.Render(c.cmp.B, v, cm, p.Range); err == nil {
			p.D, err = compare.DiffPicture(c.cmp.Diff.D, v, c.cmp.Diff.Range())
		}
	}
	if err != nil {
		p = comparePictures{Err: err.Error()}
	} else if c.swipe >= 0 {
		p.Swiped = compare.Swiped(p.A, p.B, c.swipe)
	}
	c.pics = p
	return p
}

// probe is what a pane's readout adds at picture pixel (x, y): the other
// tensors' values at the same element ("B = 0.5, A − B = -0.25").
func (c *compareState) probe(s *inspect.Session, side string) func(x, y int) string {
	a, b, d, v := s.Shown(), c.cmp.B, c.cmp.Diff.D, s.View
	at := func(name string, t tensorext.Tensor, x, y int) string {
		_, text, ok := inspect.ValueAt(t, v, x, y)
		if !ok {
			return ""
		}
		return name + " = " + text
	}
	return func(x, y int) string {
		switch side {
		case "b":
			return joinList(at("A", a, x, y), at("A − B", d, x, y))
		case "diff":
			return joinList(at("A", a, x, y), at("B", b, x, y))
		}
		return joinList(at("B", b, x, y), at("A − B", d, x, y))
	}
}

// joinList joins the non-empty ones with ", ".
func joinList(parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += ", "
		}
		out += p
	}
	return out
}

// gotoMax moves the session's sliders to the element of the largest
// |A − B|, so that the picture shows it.
func (c *compareState) gotoMax(s *inspect.Session) bool {
	idx := c.cmp.Diff.MaxIndex
	if !c.ok() || idx == nil || s.Physical {
		return false
	}
	changed := false
	for _, k := range s.Sliders() {
		if k < len(idx) && s.SetIndex(k, idx[k]) {
			changed = true
		}
	}
	return changed
}
