package grid

import "math"

// The sizes of the rows table, in plain Go (no browser): what its rows
// show (text, or previews of a size the reader chooses), their heights,
// the preview boxes, and the scrolling container's size as measured.
// native tests: rowsize_test.go.

// rowKind is what the rows show, as the rows container's data-size says:
// one line of text (a file without tensor columns), or previews of a size.
type rowKind string

const (
	kindText   rowKind = "text"
	kindSmall  rowKind = "small"
	kindMedium rowKind = "medium"
	kindLarge  rowKind = "large"
)

// Row heights in CSS pixels by what the rows show: one line of text when
// the file has no tensor column, else room for previews of the chosen size
// (web/style.css draws the same heights).
var rowHeights = map[rowKind]int{kindText: 36, kindSmall: 52, kindMedium: 84, kindLarge: 164}

// previewBoxes are the content boxes of previews in CSS pixels by preview
// size (web/style.css: canvas.preview's size less its 1 px border).
var previewBoxes = map[rowKind][2]int{kindSmall: {54, 38}, kindMedium: {94, 68}, kindLarge: {198, 148}}

// PreviewBox is the largest preview drawn for rows of the given kind, in
// device pixels: larger images are sampled down to it (0×0 for rows
// without previews: no limit).
func PreviewBox(kind rowKind, dpr float64) [2]int {
	b, ok := previewBoxes[kind]
	if !ok || dpr <= 0 {
		return [2]int{}
	}
	return [2]int{int(math.Ceil(float64(b[0]) * dpr)), int(math.Ceil(float64(b[1]) * dpr))}
}

// previewSizes are the choices of the preview size control, in order.
var previewSizes = []rowKind{kindSmall, kindMedium, kindLarge}

// previewSizeKey is the local storage key that remembers the choice.
const previewSizeKey = "tensorview-preview-size"

// isPreviewSize reports whether k is one of the preview sizes.
func (k rowKind) isPreviewSize() bool {
	_, ok := rowHeights[k]
	return ok && k != kindText
}

// tableGeometry is what the table's sizes follow: its scrolling
// container's size as last measured, the window's devicePixelRatio, and
// the preview size chosen.
type tableGeometry struct {
	viewH, viewW int     // the scrolling container's client size (0: not measured yet)
	dpr          float64 // previews are drawn at their displayed size in device pixels
	preview      rowKind // the preview size chosen (remembered in local storage)
}

// height is the height in CSS pixels of the scrolling container: the space
// the page leaves it, as last measured.
func (g tableGeometry) height() int {
	if g.viewH > 0 {
		return g.viewH
	}
	return viewHeight
}

// measured takes the scrolling container's client size, and reports
// whether it changed (a height of 0: not laid out, nothing changes).
func (g *tableGeometry) measured(h, w int) bool {
	if h <= 0 || (h == g.viewH && w == g.viewW) {
		return false
	}
	g.viewH, g.viewW = h, w
	return true
}

// kind is what the rows of a file show: text for a file without previews,
// else the preview size chosen (medium until one is).
func (g tableGeometry) kind(previews bool) rowKind {
	if !previews {
		return kindText
	}
	if g.preview.isPreviewSize() {
		return g.preview
	}
	return kindMedium
}

// rowH is the height of a row in CSS pixels.
func (g tableGeometry) rowH(previews bool) int { return rowHeights[g.kind(previews)] }

// box is the largest preview drawn in the rows, in device pixels.
func (g tableGeometry) box(previews bool) [2]int { return PreviewBox(g.kind(previews), g.dpr) }
