package overlay

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/tensorview/tensorview/app/picture"
	"github.com/tensorview/tensorview/tensorext"
)

// MaskKind is how a mask's values are read as classes.
type MaskKind int

const (
	// NotMask is a value type that is no mask (strings, say).
	NotMask MaskKind = iota
	// ClassIDs: integer values, each a class id (any integer type; negative
	// ids are allowed).
	ClassIDs
	// Binary: booleans, true class 1 and false class 0.
	Binary
	// Probabilities: floating point values, class 1 from the style's
	// Threshold up and class 0 below it.
	Probabilities
)

// String names the kind as the pairing reasons do: "class ids", "binary",
// "probabilities" ("not a mask" for NotMask).
func (k MaskKind) String() string {
	switch k {
	case ClassIDs:
		return "class ids"
	case Binary:
		return "binary"
	case Probabilities:
		return "probabilities"
	}
	return "not a mask"
}

// KindOf returns how values of type dt are read as a mask: integers as
// ClassIDs, booleans as Binary, floating point types (float16/32/64 and
// types implementing tensorext.FloatType, such as Lance's bfloat16) as
// Probabilities, anything else NotMask.
func KindOf(dt arrow.DataType) MaskKind {
	dt = tensorext.StandardType(dt)
	if dt == nil {
		return NotMask
	}
	switch id := dt.ID(); {
	case arrow.IsInteger(id):
		return ClassIDs
	case id == arrow.BOOL:
		return Binary
	case arrow.IsFloating(id):
		return Probabilities
	}
	return NotMask
}

// MaskAxes returns the dimensions of a mask of the given shape (usually its
// logical shape) and dim_names that are its rows (h) and columns (w). A mask
// has a height and a width and no other dimension larger than 1, so that a
// decoded grey PNG (height×width×1) or a 1×H×W tensor is a mask:
//   - when dim_names name a row and a column dimension (picture.RowNames,
//     picture.ColumnNames: "height", "width", "y", "x", …) and every other
//     dimension has size 1, those two;
//   - else the two dimensions larger than 1, in order; when fewer than two
//     are larger than 1 (a 1×W mask), the last two dimensions.
//
// Sizes of -1 (unknown, or varying from row to row) count as larger than
// 1. It returns an error for fewer than 2 dimensions or more than two larger
// than 1.
func MaskAxes(shape []int, dimNames []string) (h, w int, err error) {
	n := len(shape)
	if n < 2 {
		return 0, 0, fmt.Errorf("a %d-D tensor %v is no mask: it needs a height and a width", n, shape)
	}
	if len(dimNames) == n {
		h, w = picture.NameIndex(dimNames, picture.RowNames), picture.NameIndex(dimNames, picture.ColumnNames)
		if h >= 0 && w >= 0 && h != w && onlyOnes(shape, h, w) {
			return h, w, nil
		}
	}
	var big []int
	for d, s := range shape {
		if s != 1 {
			big = append(big, d)
		}
	}
	switch {
	case len(big) == 2:
		return big[0], big[1], nil
	case len(big) < 2:
		return n - 2, n - 1, nil
	}
	return 0, 0, fmt.Errorf("shape %v is no mask: it has %d dimensions larger than 1; a mask has height × width and dimensions of size 1 only", shape, len(big))
}

func onlyOnes(shape []int, h, w int) bool {
	for d, s := range shape {
		if d != h && d != w && s != 1 {
			return false
		}
	}
	return true
}

// Style is how Blend draws a mask.
type Style struct {
	// Opacity is α in 0..1: 0 leaves the image as it is, 1 paints class
	// colours opaque. Values outside 0..1 are clamped.
	Opacity float64
	// Outline draws only the pixels of a class that have a 4-neighbour of
	// another class.
	Outline bool
	// Hidden lists the classes not drawn: DefaultStyle hides class 0, the
	// background; the legend toggles entries.
	Hidden map[int64]bool
	// ShowVoid draws the void pixels of a mask whose 255 is void (HasVoid),
	// which are otherwise hidden whatever Hidden says (Style.For).
	ShowVoid bool
	// Threshold is the value from which a Probabilities mask's element is
	// class 1 (below it, class 0): 0.5 for probabilities, 0 for logits.
	Threshold float64
	// Palette gives class colours; nil is VOC.
	Palette Palette
}

// DefaultStyle is the style a mask is first drawn with: opacity 0.5, filled,
// class 0 hidden (transparent), threshold 0.5, the VOC palette.
func DefaultStyle() Style {
	return Style{Opacity: 0.5, Hidden: map[int64]bool{0: true}, Threshold: 0.5, Palette: VOC}
}

func (s Style) palette() Palette {
	if s.Palette == nil {
		return VOC
	}
	return s.Palette
}

// maskGrid reads a mask's class ids by pixel.
type maskGrid struct {
	h, w   int
	base   int
	sy, sx int
	get    func(pos int) float64
	null   func(pos int) bool
	kind   MaskKind
	thresh float64
}

// newGrid checks a mask tensor and prepares to read it in its logical view.
func newGrid(mask tensorext.Tensor, threshold float64) (maskGrid, error) {
	if mask.Values == nil {
		return maskGrid{}, errors.New("overlay: the mask is null")
	}
	if err := mask.Check(); err != nil {
		return maskGrid{}, fmt.Errorf("overlay: mask: %w", err)
	}
	kind := KindOf(mask.ValueType())
	get, ok := tensorext.Float64Reader(mask.Values)
	if kind == NotMask || !ok {
		return maskGrid{}, fmt.Errorf("overlay: a mask of %s values cannot be drawn; need integer class ids, booleans or floating point probabilities", mask.ValueType())
	}
	l := mask.Logical()
	hd, wd, err := MaskAxes(l.Shape, l.DimNames)
	if err != nil {
		return maskGrid{}, fmt.Errorf("overlay: mask: %w", err)
	}
	g := maskGrid{h: l.Shape[hd], w: l.Shape[wd], base: l.Offset, sy: l.Strides[hd], sx: l.Strides[wd],
		get: get, null: mask.IsNull, kind: kind, thresh: threshold}
	if mask.Values.NullN() == 0 {
		g.null = func(int) bool { return false }
	}
	return g, nil
}

// class returns the class of pixel (x, y); ok is false for a null element
// and a NaN probability, which belong to no class.
func (g *maskGrid) class(x, y int) (id int64, ok bool) {
	pos := g.base + y*g.sy + x*g.sx
	if g.null(pos) {
		return 0, false
	}
	v := g.get(pos)
	switch g.kind {
	case Probabilities:
		if v != v {
			return 0, false
		}
		if v >= g.thresh {
			return 1, true
		}
		return 0, true
	case ClassIDs:
		return int64(v), true
	}
	if v != 0 {
		return 1, true
	}
	return 0, true
}

// edge reports whether pixel (x, y) of class id has a 4-neighbour inside
// the mask of another class (or of none: null, NaN).
func (g *maskGrid) edge(x, y int, id int64) bool {
	for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		nx, ny := x+d[0], y+d[1]
		if nx < 0 || ny < 0 || nx >= g.w || ny >= g.h {
			continue
		}
		if n, ok := g.class(nx, ny); !ok || n != id {
			return true
		}
	}
	return false
}

// CountClasses returns the classes present in a mask and their pixel counts,
// by ascending id, reading it as Blend does (threshold for Probabilities;
// null elements and NaN belong to no class). The legend lists these.
func CountClasses(mask tensorext.Tensor, threshold float64) ([]ClassCount, error) {
	g, err := newGrid(mask, threshold)
	if err != nil {
		return nil, err
	}
	m := map[int64]int{}
	for y := range g.h {
		for x := range g.w {
			if id, ok := g.class(x, y); ok {
				m[id]++
			}
		}
	}
	return sortCounts(m), nil
}

// Blend draws a mask over the picture in dst. The mask's logical view must
// have dst's size: its height (MaskAxes) dst.Bounds().Dy() and its width
// Dx(); mask pixel (x, y) lies over dst pixel (Min.X+x, Min.Y+y). For an
// inspector view that flips or transposes the image, pass a mask view with
// the same flips (tensorext.Tensor with negated strides) or blend before
// flipping.
//
// Each pixel whose class c is drawn (not in s.Hidden; in Outline mode also
// having a 4-neighbour inside the mask of another class, so that a class
// running off the picture's border is not outlined along it) becomes, per
// channel R, G, B:
//
//	out = floor((1−α)·img + α·colour + 0.5)
//
// computed in float64, with α = s.Opacity clamped to 0..1, img the pixel's
// channel and colour the palette's colour of c; alpha is left as it is. So
// at α = 0.5 a black pixel under class colour (128, 0, 0) becomes (64, 0, 0)
// and under 255 a channel of 0 becomes 128 (127.5 rounds up). Other pixels,
// and pixels whose mask element is null (or NaN in a float mask), are left
// as they are. A float mask is thresholded (class 1 from s.Threshold up),
// not drawn through a colormap: the inspector already shows the
// probabilities themselves as a picture.
//
// It returns an error, leaving dst unchanged, for a null mask, a value type
// that is no mask (KindOf), a shape that is no mask (MaskAxes), a view
// whose strides reach outside its values, or a size other than dst's
// ("mask is 256×256 (height × width), the image 512×512").
func Blend(dst *image.RGBA, mask tensorext.Tensor, s Style) error {
	g, err := newGrid(mask, s.Threshold)
	if err != nil {
		return err
	}
	b := dst.Bounds()
	if g.h != b.Dy() || g.w != b.Dx() {
		return fmt.Errorf("overlay: mask is %d×%d (height × width), the image %d×%d", g.h, g.w, b.Dy(), b.Dx())
	}
	a := math.Max(0, math.Min(1, s.Opacity))
	if a != a {
		a = 0
	}
	pal := s.palette()
	var lastID int64
	var last color.RGBA
	haveLast := false
	for y := range g.h {
		for x := range g.w {
			id, ok := g.class(x, y)
			if !ok || s.Hidden[id] || (s.Outline && !g.edge(x, y, id)) {
				continue
			}
			if !haveLast || id != lastID {
				lastID, last, haveLast = id, pal(id), true
			}
			o := dst.PixOffset(b.Min.X+x, b.Min.Y+y)
			p := dst.Pix[o : o+3 : o+3]
			p[0] = mix(p[0], last.R, a)
			p[1] = mix(p[1], last.G, a)
			p[2] = mix(p[2], last.B, a)
		}
	}
	return nil
}

// mix is floor((1−α)·img + α·c + 0.5), in 0..255 for α in 0..1.
func mix(img, c uint8, a float64) uint8 {
	return uint8(math.Floor((1-a)*float64(img) + a*float64(c) + 0.5))
}

// MaskValue returns the class of the mask element at logical index (y, x)
// (after MaskAxes: the row and the column) for the readout, as Blend reads
// it; ok is false for a null element, NaN, an index outside the mask or a
// mask Blend refuses.
func MaskValue(mask tensorext.Tensor, threshold float64, y, x int) (id int64, ok bool) {
	g, err := newGrid(mask, threshold)
	if err != nil || y < 0 || x < 0 || y >= g.h || x >= g.w {
		return 0, false
	}
	return g.class(x, y)
}
