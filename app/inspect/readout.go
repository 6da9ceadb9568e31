package inspect

import (
	"strings"

	"github.com/tensorview/tensorview/tensorext"
)

// ValueAt returns what lies under image pixel (x, y) of the picture v
// selects from t, for a hover readout: the tensor index (NDim entries, in
// t's dimension order, flips undone) and the element's exact value as text
// (t.ValueStr, "(null)" for null; float16 formatted from an exact
// conversion). With a Channel, index[Channel] is -1 (all channels) and text
// lists the channel values in order, numpy style: "[12 34 56]". ok is false,
// with nil index and empty text, when v is invalid for t or (x, y) lies
// outside the picture.
func ValueAt(t tensorext.Tensor, v View, x, y int) (index []int, text string, ok bool) {
	if v.Validate(t) != nil {
		return nil, "", false
	}
	g := v.geom(t)
	if x < 0 || y < 0 || x >= g.w || y >= g.h || t.Check() != nil {
		return nil, "", false
	}
	return v.index(t, x, y), pixelText(t, g, x, y), true
}

// pixelText formats the element(s) of pixel (x, y), which must be inside.
func pixelText(t tensorext.Tensor, g geometry, x, y int) string {
	pos := g.base + y*g.sy + x*g.sx
	if g.channels == 1 {
		return t.ValueStr(pos)
	}
	var b strings.Builder
	b.WriteByte('[')
	for c := 0; c < g.channels; c++ {
		if c > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.ValueStr(pos + c*g.sc))
	}
	b.WriteByte(']')
	return b.String()
}

// MaxNeighbourhoodRadius is the largest radius Neighbourhood accepts.
const MaxNeighbourhoodRadius = 16

// Neighbourhood returns the values around image pixel (x, y) as a small
// table in image orientation: 2*radius+1 rows for image rows y-radius ..
// y+radius, each with 2*radius+1 cells for columns x-radius .. x+radius,
// the centre cell [radius][radius] being pixel (x, y). Cells hold ValueAt's
// text; cells outside the picture are "". It returns nil when v is invalid
// for t, (x, y) is outside the picture, or radius is outside
// 0..MaxNeighbourhoodRadius.
func Neighbourhood(t tensorext.Tensor, v View, x, y, radius int) [][]string {
	if radius < 0 || radius > MaxNeighbourhoodRadius || v.Validate(t) != nil {
		return nil
	}
	g := v.geom(t)
	if x < 0 || y < 0 || x >= g.w || y >= g.h || t.Check() != nil {
		return nil
	}
	n := 2*radius + 1
	rows := make([][]string, n)
	for i := range rows {
		rows[i] = make([]string, n)
		py := y - radius + i
		if py < 0 || py >= g.h {
			continue
		}
		for j := range rows[i] {
			if px := x - radius + j; px >= 0 && px < g.w {
				rows[i][j] = pixelText(t, g, px, py)
			}
		}
	}
	return rows
}
