package masks

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/imagebytes"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/tensorext"
)

// Choice is a column the inspector offers to draw over its picture.
type Choice struct {
	Col   int
	Field string
	// Reason says why it is offered (overlay.Pair.Reason).
	Reason string
}

// RowColumns describes every column of a row for the pairing rule: a
// tensor column by its row's tensor (logical shape, dim names, value
// type; as a picture when the table previews it as one), a column of
// encoded images by its row's header ([height, width, channels]), others
// by name only. A tensor the row cannot give (null, broken) is described
// by its column's type, its varying sizes -1, so that it is still offered
// and says in its turn why nothing is drawn.
func RowColumns(f *decode.File, row int64) []overlay.Column {
	fields := f.Fields()
	cols := make([]overlay.Column, len(fields))
	for i, fld := range fields {
		c := &cols[i]
		c.Name = fld.Name
		switch {
		case fld.Images:
			c.Image, c.Encoded, c.ValueType = true, true, arrow.PrimitiveTypes.Uint8
			if v, err := f.Value(row, i); err == nil {
				if b, info, err := v.Encoded(); err == nil && b != nil {
					c.Shape = []int{info.Height, info.Width, info.Channels}
					if mi, err := imagebytes.MaskConfig(b); err == nil {
						// A palette or grey PNG: class ids, as the mask it
						// may be (its ids, not the colours a palette gives).
						c.Encoded, c.Shape, c.DimNames, c.ValueType = false, []int{mi.Height, mi.Width}, imagebytes.MaskDimNames, mi.ValueType()
					}
				}
			}
		case fld.Tensor != nil:
			t, err := f.Tensor(row, i)
			if err != nil {
				c.Shape, c.DimNames, c.ValueType = session.FieldTensor(fld.Tensor)
				break
			}
			l := t.Logical()
			c.Shape, c.DimNames, c.ValueType = l.Shape, l.DimNames, t.ValueType()
			if a, ok := picture.Find(l.Shape, l.DimNames, c.ValueType); ok && a.Preview {
				c.Image = true
			}
		}
	}
	return cols
}

// relaxed returns the columns with their heights and widths unknown (-1):
// a mask whose size differs from its image's in this row is still a mask
// of that image, and says why it is not drawn.
func relaxed(cols []overlay.Column) []overlay.Column {
	out := make([]overlay.Column, len(cols))
	for i, c := range cols {
		c.Shape = slices.Clone(c.Shape)
		switch {
		case c.Encoded:
			if len(c.Shape) == 3 {
				c.Shape[0], c.Shape[1] = -1, -1
			}
		case c.Shape != nil:
			if h, w, err := overlay.MaskAxes(c.Shape, c.DimNames); err == nil {
				c.Shape[h], c.Shape[w] = -1, -1
			}
			if a, ok := picture.Find(c.Shape, c.DimNames, c.ValueType); ok {
				c.Shape[a.H], c.Shape[a.W] = -1, -1
			}
		}
		out[i] = c
	}
	return out
}

// Choices returns the columns that can be drawn over column image
// (cols from RowColumns), best first, and which one to draw by default
// (-1: none): first the masks overlay.Pairs proposes for the row's sizes,
// the default being the suggested one; then those it proposes whatever
// the sizes (a mask named like one whose size differs in this row: never
// the default); then any other column overlay.Match accepts (an unnamed
// float tensor of the image's size, say).
func Choices(cols []overlay.Column, image int) (choices []Choice, def int) {
	def = -1
	seen := map[int]bool{image: true}
	add := func(col int, reason string) {
		seen[col] = true
		choices = append(choices, Choice{Col: col, Field: cols[col].Name, Reason: reason})
	}
	for _, p := range overlay.Pairs(cols) {
		if p.Image == image && !seen[p.Mask] {
			if p.Suggested && def < 0 {
				def = len(choices)
			}
			add(p.Mask, p.Reason)
		}
	}
	for _, p := range overlay.Pairs(relaxed(cols)) {
		if p.Image == image && !seen[p.Mask] {
			add(p.Mask, p.Reason)
		}
	}
	for j := range cols {
		if seen[j] {
			continue
		}
		if p, err := overlay.Match(cols[j], cols[image]); err == nil {
			add(j, p.Reason)
		}
	}
	return choices, def
}

// ChoiceIndex returns the index of the choice of column field, or -1.
func ChoiceIndex(choices []Choice, field string) int {
	for i, c := range choices {
		if c.Field == field {
			return i
		}
	}
	return -1
}

// Layer is one row's mask, read for drawing.
type Layer struct {
	Col   int
	Field string
	// Names are the class names the file gives (nil: none).
	Names []string
	// Mask is the mask's logical view and H, W its rows' and columns'
	// dimensions (overlay.MaskAxes); Kind how its values read.
	Mask tensorext.Tensor
	H, W int
	Kind overlay.MaskKind
	// Counts are the classes present (overlay.CountClasses); Void reports
	// that the mask's 255 marks void pixels (overlay.HasVoid).
	Counts []overlay.ClassCount
	Void   bool
	// Err says why the row's mask cannot be drawn; the rest is then empty
	// but for Col, Field and Names.
	Err string
}

// Read reads the mask of column col over column image in row (cols
// from RowColumns), with the threshold of a float mask.
func Read(f *decode.File, row int64, cols []overlay.Column, image, col int, threshold float64) Layer {
	fld := f.Fields()[col]
	m := Layer{Col: col, Field: fld.Name, Names: overlay.SchemaClassNames(f.Schema.Metadata(), fld.Name)}
	t, src, err := Tensor(f, row, col)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	return m.withMask(t, src, cols, col, image, threshold)
}

// Tensor reads the mask of column col in row: a tensor, or the class
// ids of an encoded image (a palette PNG's indices, VOC's masks; a grey
// PNG's samples, 16 bits exactly), and where its ids come from (for
// overlay.HasVoid), or why not ("annotation is null in this row").
func Tensor(f *decode.File, row int64, col int) (tensorext.Tensor, overlay.IDSource, error) {
	fld := f.Fields()[col]
	if fld.Images {
		v, err := f.Value(row, col)
		if err != nil {
			return tensorext.Tensor{}, 0, err
		}
		b, _, err := v.Encoded()
		switch {
		case err != nil:
			return tensorext.Tensor{}, 0, fmt.Errorf("%s: %w", fld.Name, err)
		case b == nil && v.Array.IsNull(v.Index):
			return tensorext.Tensor{}, 0, errors.New(fld.Name + " is null in this row")
		case b == nil:
			return tensorext.Tensor{}, 0, errors.New(fld.Name + " holds no image in this row")
		}
		mk, err := imagebytes.DecodeMask(b, imagebytes.DefaultLimits)
		if err != nil {
			return tensorext.Tensor{}, 0, fmt.Errorf("%s: %w", fld.Name, err)
		}
		src := overlay.OtherIDs
		switch {
		case mk.Paletted:
			src = overlay.PaletteIDs
		case mk.BitDepth <= 8:
			src = overlay.Uint8IDs
		}
		return mk.IDs, src, nil
	}
	t, err := f.Tensor(row, col)
	switch {
	case errors.Is(err, tensorext.ErrNullTensor):
		return tensorext.Tensor{}, 0, errors.New(fld.Name + " is null in this row")
	case err != nil:
		return tensorext.Tensor{}, 0, fmt.Errorf("%s: %w", fld.Name, err)
	}
	src := overlay.OtherIDs
	if t.ValueType().ID() == arrow.UINT8 {
		src = overlay.Uint8IDs
	}
	return t, src, nil
}

// withMask is m with the mask t of column col, whose ids come from src,
// checked against the image column image (overlay.Match), its classes
// counted and its void found.
func (m Layer) withMask(t tensorext.Tensor, src overlay.IDSource, cols []overlay.Column, col, image int, threshold float64) Layer {
	fld := cols[col].Name // its field
	if _, err := overlay.Match(cols[col], cols[image]); err != nil {
		m.Err = err.Error()
		return m
	}
	l := t.Logical()
	h, w, err := overlay.MaskAxes(l.Shape, l.DimNames)
	if err != nil {
		m.Err = fmt.Sprintf("%s: %v", fld, err)
		return m
	}
	counts, err := overlay.CountClasses(t, threshold)
	if err != nil {
		m.Err = err.Error()
		return m
	}
	m.Mask, m.H, m.W, m.Kind, m.Counts = l, h, w, overlay.KindOf(t.ValueType()), counts
	m.Void = m.Kind == overlay.ClassIDs && overlay.HasVoid(src, counts, m.Names)
	return m
}

// Align returns the 2-D view of the mask under the picture v selects
// from shown (the inspected tensor as displayed): mask element (y, x) lies
// under picture pixel (x, y), through the view's swap and flips. It
// returns why not when the picture's rows and columns are not the image's
// height and width (picture.Find), or their sizes are not the mask's.
func Align(m Layer, shown tensorext.Tensor, v inspect.View) (tensorext.Tensor, error) {
	if m.Mask.Values == nil {
		return tensorext.Tensor{}, errors.New(m.Err)
	}
	a, ok := picture.Find(shown.Shape, shown.DimNames, shown.ValueType())
	if !ok {
		return tensorext.Tensor{}, errors.New("the picture has no height and width to lay the mask on")
	}
	mh, mw := m.Mask.Shape[m.H], m.Mask.Shape[m.W]
	if ih, iw := shown.Shape[a.H], shown.Shape[a.W]; ih != mh || iw != mw {
		return tensorext.Tensor{}, fmt.Errorf("%s is %d×%d but the image is %d×%d (height × width)", m.Field, mh, mw, ih, iw)
	}
	sh, sw := m.Mask.Strides[m.H], m.Mask.Strides[m.W]
	var t tensorext.Tensor
	switch {
	case v.Y == a.H && v.X == a.W:
		t = tensorext.Tensor{Shape: []int{mh, mw}, Strides: []int{sh, sw}}
	case v.Y == a.W && v.X == a.H:
		t = tensorext.Tensor{Shape: []int{mw, mh}, Strides: []int{sw, sh}}
	default:
		return tensorext.Tensor{}, fmt.Errorf("the picture shows dimensions %s × %s, and the mask follows only the image's height and width (%s × %s)",
			inspect.DimLabel(shown, v.Y), inspect.DimLabel(shown, v.X), inspect.DimLabel(shown, a.H), inspect.DimLabel(shown, a.W))
	}
	t.Values, t.Offset = m.Mask.Values, m.Mask.Offset
	if v.FlipY {
		t.Offset += (t.Shape[0] - 1) * t.Strides[0]
		t.Strides[0] = -t.Strides[0]
	}
	if v.FlipX {
		t.Offset += (t.Shape[1] - 1) * t.Strides[1]
		t.Strides[1] = -t.Strides[1]
	}
	return t, nil
}

// Blend returns a copy of base with the mask (a view from Align)
// blended in with style s; base is left as it is.
func Blend(base *image.RGBA, mask tensorext.Tensor, s overlay.Style) (*image.RGBA, error) {
	out := &image.RGBA{Pix: slices.Clone(base.Pix), Stride: base.Stride, Rect: base.Rect}
	if err := overlay.Blend(out, mask, s); err != nil {
		return nil, err
	}
	return out, nil
}

// Readout is what the readout says of the mask under picture pixel
// (x, y) (mask a view from Align): `mask = 3 "car"`, `mask = 300` for
// an id the file does not name, `mask = 255 (void)` for the void of a mask
// that has one (void), `pred = 0.53 (class 1)` for a float mask,
// `mask = null`.
func Readout(field string, mask tensorext.Tensor, kind overlay.MaskKind, names []string, void bool, threshold float64, x, y int) string {
	id, ok := overlay.MaskValue(mask, threshold, y, x)
	if !ok {
		if pos, in := mask.Pos(y, x); in && !mask.IsNull(pos) {
			return field + " = " + mask.ValueStr(pos) // NaN
		}
		return field + " = null"
	}
	if kind == overlay.Probabilities {
		pos, _ := mask.Pos(y, x)
		return fmt.Sprintf("%s = %s (class %s)", field, mask.ValueStr(pos), overlay.Label(names, id))
	}
	return field + " = " + overlay.MaskLabel(names, void, id)
}

// Probe is what SliceView needs to read out the mask under the
// pointer: the mask's view over the picture (Align; no Values when no
// mask is drawn), how its values read and its names.
type Probe struct {
	Field     string
	Mask      tensorext.Tensor
	Kind      overlay.MaskKind
	Names     []string
	Void      bool
	Threshold float64
}

// Text is the readout of picture pixel (x, y), "" without a mask.
func (p Probe) Text(x, y int) string {
	if p.Mask.Values == nil {
		return ""
	}
	return Readout(p.Field, p.Mask, p.Kind, p.Names, p.Void, p.Threshold, x, y)
}

// Fields are the column names of choices, in order.
func Fields(cs []Choice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Field)
	}
	return out
}
