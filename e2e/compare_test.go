//go:build !wasm

package e2e

import (
	"encoding/binary"
	"fmt"
	"image/color"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/internal/testkit"
)

// slice returns the values of slice s of a [slices, height, width] tensor.
func slice(c testkit.Compared, v []testkit.JSONFloat, s int) []float64 {
	n := c.Height * c.Width
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(v[s*n+i])
	}
	return out
}

// scalarPicture is the picture inspect.Render draws of values (row-major
// height × width) with colormap cm over min..max: entry
// floor((v − min)·(256/(max − min))) clamped to 0..255; −Inf black.
func scalarPicture(values []float64, cm inspect.Colormap, lo, hi float64) []int {
	out := make([]int, 0, 4*len(values))
	scale := 256 / (hi - lo)
	for _, v := range values {
		var c color.RGBA
		switch {
		case math.IsInf(v, -1):
			c = cm.NegInf
		case math.IsInf(v, 1):
			c = cm.PosInf
		default:
			c = cm.LUT[min(255, max(0, int(math.Floor((v-lo)*scale))))]
		}
		out = append(out, int(c.R), int(c.G), int(c.B), int(c.A))
	}
	return out
}

// finiteRange is the smallest and largest finite value of the slices.
func finiteRange(vs ...[]float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		for _, f := range v {
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				lo, hi = math.Min(lo, f), math.Max(hi, f)
			}
		}
	}
	return lo, hi
}

// panePixels reads the picture of a comparison's pane (a, b, diff or
// swipe): its size and RGBA pixels.
func (b *browser) panePixels(side string) (w, h int, pix []int) {
	b.t.Helper()
	var res struct {
		W, H int
		Pix  []int
	}
	b.eval(fmt.Sprintf(`(c => c ? {W: c.width, H: c.height, Pix: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data)} : {W: 0, H: 0, Pix: []})(
		document.querySelector('[data-side=%s] canvas[data-role=slice]'))`, side), &res)
	return res.W, res.H, res.Pix
}

// waitPane waits until pane side shows want (w × h RGBA) and reports the
// first pixels that differ when it does not come.
func (b *browser) waitPane(what, side string, w, h int, want []int) {
	b.t.Helper()
	b.waitPixels(fmt.Sprintf("%s: pane %s", what, side), func() (int, int, []int) { return b.panePixels(side) }, w, h, want)
}

// hoverPane moves the mouse over pixel (x, y) of pane side and returns its
// readout (without the table of neighbours) once it reads out the other
// sides.
func (b *browser) hoverPane(side string, x, y int) string {
	b.t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const c = document.querySelector('[data-side=%s] canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + %d.5 * r.width / c.width, Y: r.top + %d.5 * r.height / c.height} })()`, side, x, y), &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	sel := fmt.Sprintf(`[data-side=%s] [data-role=readout]`, side)
	b.waitFor(fmt.Sprintf(`document.querySelector('%s [data-role=compare-values]') !== null`, sel))
	var text string
	b.eval(fmt.Sprintf(`[...document.querySelector('%s').childNodes].filter(n => n.tagName !== 'TABLE').map(n => n.textContent).join('')`, sel), &text)
	return text
}

// diffStats are the attributes of [data-role=diff-stats].
type diffStats struct{ MaxAbs, MeanAbs, RMSE, Differing, PSNR, MaxIndex, Tol string }

func (b *browser) diffStats() diffStats {
	b.t.Helper()
	var s diffStats
	b.eval(`(e => e ? {MaxAbs: e.dataset.maxAbs, MeanAbs: e.dataset.meanAbs, RMSE: e.dataset.rmse, Differing: e.dataset.differing,
		PSNR: e.dataset.psnr ?? '', MaxIndex: e.dataset.maxIndex, Tol: e.dataset.tol} : {})(document.querySelector('[data-role=diff-stats]'))`, &s)
	return s
}

func exactText(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// compareNote is the comparison's message, "" for none.
func (b *browser) compareNote() string {
	var s string
	b.eval(`document.querySelector('[data-role=compare-note]')?.textContent ?? ''`, &s)
	return s
}

// readNPYFloat64 reads a little-endian float64 .npy file: shape and values.
func readNPYFloat64(t *testing.T, data []byte) ([]int, []float64) {
	t.Helper()
	if len(data) < 10 || string(data[:6]) != "\x93NUMPY" || data[6] != 1 {
		t.Fatalf(".npy starts %q", data[:min(10, len(data))])
	}
	n := int(binary.LittleEndian.Uint16(data[8:10]))
	header := string(data[10 : 10+n])
	m := regexp.MustCompile(`^\{'descr': '<f8', 'fortran_order': False, 'shape': \(([0-9, ]*)\), \} *\n$`).FindStringSubmatch(header)
	if m == nil {
		t.Fatalf(".npy header %q", header)
	}
	var shape []int
	for _, p := range strings.Split(m[1], ",") {
		if p = strings.TrimSpace(p); p != "" {
			d, _ := strconv.Atoi(p)
			shape = append(shape, d)
		}
	}
	body := data[10+n:]
	vals := make([]float64, len(body)/8)
	for i := range vals {
		vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(body[8*i:]))
	}
	return shape, vals
}

// TestCompare opens compare.arrow (apache-arrow: a float32 target [5, 12,
// 16] and its prediction stored permuted) by URL, inspects the target and
// compares it with the prediction: the choices (compatible first), the
// statistics exactly as gen_compare.mjs computed them, A − B's picture at
// every pixel (DiffColormap over ±max |A − B|), A and B on one colour
// scale; one slider moves all three panes, one wheel zooms all three, one
// drag pans all three while it moves (data-pan); the readouts give every
// side; the tolerance; "show" goes to the max; A − B as .npy; the link in
// a fresh page; a shape, a value type and a null side each say so naming
// both, the inspector still there; another row; axe in both themes, at
// 360 px too.
func TestCompare(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	exp := testkit.ReadCompared(t)
	H, W := exp.Height, exp.Width
	e := exp.Diffs["target@0 - prediction@0"]
	b := newBrowser(t)
	downloads, done := b.allowDownloads()
	b.run(chromedp.Navigate(b.base + "?url=../testdata/compare.arrow"))
	b.waitOpened("compare.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="target"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] select[data-role=compare-select]') !== null`)

	var options []struct{ Text, Group string }
	b.eval(`[...document.querySelectorAll('select[data-role=compare-select] option')].map(o => ({Text: o.textContent, Group: o.parentElement.label || ''}))`, &options)
	other := "Other shapes or value types"
	want := []struct{ Text, Group string }{{"nothing", ""}, {"prediction", ""}, {"target (another row)", ""},
		{"baseline", other}, {"thumb", other}, {"image", other}, {"reconstruction", other}}
	if !reflect.DeepEqual(options, want) {
		t.Errorf("choices %+v, want %+v", options, want)
	}

	b.screenshot("compare-choices")
	b.setValue(`select[data-role=compare-select]`, "0")
	b.waitFor(`document.querySelector('[data-role=diff-stats]') !== null && document.querySelectorAll('[data-role=compare-panes] canvas[data-role=slice]').length === 3`)
	var reason string
	b.eval(`document.querySelector('[data-role=compare-reason]').textContent`, &reason)
	if want := `prediction: float32 5×12×16, as target; named like a prediction or target ("prediction")`; reason != want {
		t.Errorf("reason %q, want %q", reason, want)
	}
	wantStats := diffStats{MaxAbs: exactText(e.MaxAbs), MeanAbs: exactText(e.MeanAbs), RMSE: exactText(e.RMSE),
		Differing: strconv.Itoa(e.Differing["0"]), MaxIndex: "3,7,4", Tol: "0"}
	got := b.diffStats()
	psnr, err := strconv.ParseFloat(got.PSNR, 64)
	if err != nil || math.Abs(psnr-e.PSNR) > 1e-12*e.PSNR {
		t.Errorf("PSNR %q, want %v", got.PSNR, e.PSNR)
	}
	got.PSNR = ""
	if got != wantStats {
		t.Errorf("diff stats %+v, want %+v", got, wantStats)
	}
	if got.MaxAbs != "0.25" || got.MeanAbs != "0.0029816214807090718" || got.RMSE != "0.01621259248143127" || got.Differing != "771" {
		t.Errorf("diff stats %+v: want the fixture's 0.25, 0.0029816214807090718, 0.01621259248143127, 771", got)
	}

	viridis, _ := inspect.ColormapByName("viridis")
	dcm := overlay.DiffColormap()
	// The pictures of slice s: A and B on the scale of both slices'
	// finite values, A − B on ±0.25.
	check := func(what string, s int) {
		t.Helper()
		a, bb := slice(exp, exp.Values.Target[0], s), slice(exp, exp.Values.Prediction[0], s)
		lo, hi := finiteRange(a, bb)
		b.waitPane(what+": A", "a", W, H, scalarPicture(a, viridis, lo, hi))
		b.waitPane(what+": B", "b", W, H, scalarPicture(bb, viridis, lo, hi))
		b.waitPane(what+": A − B", "diff", W, H, scalarPicture(slice(exp, e.Diff, s), dcm, -e.MaxAbs, e.MaxAbs))
	}
	check("slice 0", 0)
	var widths []float64
	b.eval(`[...document.querySelectorAll('[data-role=compare-panes] .viewport')].map(v => v.getBoundingClientRect().width)`, &widths)
	if len(widths) != 3 || widths[0] != widths[1] || widths[1] != widths[2] {
		t.Errorf("side by side: pane widths %v, want three equal", widths)
	}
	b.screenshot("compare-side-by-side")

	// One slider moves the three panes.
	b.setValue(`input[type=range][data-dim="0"]`, "3")
	check("slice 3", 3)
	// The largest difference, +0.25 at [3, 7, 4]: the map's last colour.
	_, _, pix := b.panePixels("diff")
	if p, c := pix[(7*W+4)*4:][:4], dcm.LUT[255]; !reflect.DeepEqual(p, []int{int(c.R), int(c.G), int(c.B), 255}) {
		t.Errorf("A − B's pixel at the max (4, 7) = %v, want coolwarm's last colour %v", p, c)
	}
	if got, want := b.hoverPane("b", 4, 7), "[slice=3, H=7, W=4] = 0.0859375, A = 0.3359375, A − B = 0.25"; got != want {
		t.Errorf("B's readout %q, want %q", got, want)
	}
	if got, want := b.hoverPane("diff", 4, 7), "[slice=3, H=7, W=4] = 0.25, A = 0.3359375, B = 0.0859375"; got != want {
		t.Errorf("A − B's readout %q, want %q", got, want)
	}
	// Slice 4 holds the prediction's +Inf at (0, 0): A − B is −Inf there.
	b.setValue(`input[type=range][data-dim="0"]`, "4")
	check("slice 4", 4)
	var notCompared string
	b.eval(`[...document.querySelectorAll('[data-role=diff-stats] dt')].find(d => d.textContent === 'not compared')?.nextElementSibling.textContent ?? ''`, &notCompared)
	if notCompared != "1 infinite on one side" {
		t.Errorf("not compared: %q", notCompared)
	}
	// "show" goes back to the max's slice.
	b.run(chromedp.Click(`[data-action=goto-max]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('input[type=range][data-dim="0"]').value === '3'`)
	check("the max's slice", 3)

	// One wheel zooms the three panes alike.
	var pt struct{ X, Y float64 }
	b.eval(`(r => ({X: r.left + r.width / 2, Y: r.top + r.height / 2}))(document.querySelector('[data-side=a] .viewport').getBoundingClientRect())`, &pt)
	b.run(input.DispatchMouseEvent(input.MouseWheel, pt.X, pt.Y).WithDeltaX(0).WithDeltaY(-400))
	b.waitFor(`(t => t.every(x => x === t[0]) && t[0].includes('scale(1.8'))([...document.querySelectorAll('[data-role=compare-panes] canvas[data-role=slice]')].map(c => c.style.transform))`)
	var zooms []string
	b.eval(`[...document.querySelectorAll('[data-role=compare-panes] [data-role=zoom]')].map(z => z.textContent)`, &zooms)
	if !reflect.DeepEqual(zooms, []string{"zoom 1.8×", "zoom 1.8×", "zoom 1.8×"}) {
		t.Errorf("zooms %q", zooms)
	}
	// One drag pans the three, live: every move shows on every pane
	// (data-pan, the canvases' places), before the button is released.
	var before struct {
		Pan  string
		Zoom string
	}
	b.eval(`(p => ({Pan: p.dataset.pan, Zoom: p.dataset.zoom}))(document.querySelector('[data-role=compare-panes]'))`, &before)
	var p0 [2]float64
	_, err = fmt.Sscanf(before.Pan, "%g,%g", &p0[0], &p0[1])
	zoom, zerr := strconv.ParseFloat(before.Zoom, 64)
	if err != nil || zerr != nil || math.Abs(zoom-inspect.WheelFactor(-400)) > 1e-12 {
		t.Fatalf("before the drag: data-pan %q, data-zoom %q (want %v)", before.Pan, before.Zoom, inspect.WheelFactor(-400))
	}
	pt.X, pt.Y = math.Round(pt.X), math.Round(pt.Y)
	b.run(chromedp.MouseEvent(input.MousePressed, pt.X, pt.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, pt.X+15, pt.Y+10, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, pt.X+30, pt.Y+20, chromedp.ButtonLeft))
	// The page's word that the second move applied: the pan moved by
	// (30, 20) CSS pixels.
	live := fmt.Sprintf(`(p => Math.abs(p[0] - %v) < 1e-6 && Math.abs(p[1] - %v) < 1e-6)(document.querySelector('[data-role=compare-panes]').dataset.pan.split(',').map(Number))`, p0[0]+30, p0[1]+20)
	b.waitFor(live)
	// Each canvas placed at the pan in its viewport, at the zoom: the
	// same picture pixel under the same point of every pane.
	var placed []struct{ Left, Top, Width, Height float64 }
	b.eval(`[...document.querySelectorAll('[data-role=compare-panes] .viewport')].map(v => { const r = v.getBoundingClientRect(), c = v.querySelector('canvas[data-role=slice]').getBoundingClientRect();
		return {Left: c.left - r.left - v.clientLeft, Top: c.top - r.top - v.clientTop, Width: c.width, Height: c.height} })`, &placed)
	var cssW float64
	b.eval(`parseFloat(document.querySelector('[data-side=a] canvas[data-role=slice]').style.width)`, &cssW)
	if len(placed) != 3 {
		t.Fatalf("during the drag: %d panes", len(placed))
	}
	for i, p := range placed {
		if math.Abs(p.Left-(p0[0]+30)) > 0.06 || math.Abs(p.Top-(p0[1]+20)) > 0.06 || math.Abs(p.Width-cssW*zoom) > 0.01 ||
			math.Abs(p.Left-placed[0].Left) > 0.01 || math.Abs(p.Top-placed[0].Top) > 0.01 || math.Abs(p.Height-placed[0].Height) > 0.01 {
			t.Errorf("during the drag, pane %d's picture at %+v, want (%.2f, %.2f) wide %.2f like pane 0's %+v", i, p, p0[0]+30, p0[1]+20, cssW*zoom, placed[0])
		}
	}
	b.screenshot("compare-drag-live")
	b.run(chromedp.MouseEvent(input.MouseReleased, pt.X+30, pt.Y+20, chromedp.ButtonLeft))
	// Released: the inspector takes the camera (the address's pan), the
	// panes stay where the drag left them.
	b.waitFor(fmt.Sprintf(`document.documentElement.dataset.address === 'settled' && Math.abs(new URL(location.href).searchParams.get('pan').split(',').map(Number)[0] - %v) < 0.06`, p0[0]+30))
	b.waitFor(live)
	var transforms []string
	b.eval(`[...document.querySelectorAll('[data-role=compare-panes] canvas[data-role=slice]')].map(c => c.style.transform)`, &transforms)
	if len(transforms) != 3 || transforms[0] != transforms[1] || transforms[1] != transforms[2] || !strings.Contains(transforms[0], "scale(1.8") {
		t.Errorf("after a drag: transforms %q", transforms)
	}
	b.run(chromedp.Click(`[data-side=diff] [data-action=reset-zoom]`, chromedp.ByQuery))
	b.waitFor(`[...document.querySelectorAll('[data-role=compare-panes] canvas[data-role=slice]')].every(c => c.style.transform.includes('scale(1)'))`)

	// The tolerance.
	for _, tol := range []string{"0.001953125", "0.2"} {
		b.setValue(`input[data-role=diff-tol]`, tol)
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=diff-stats]')?.dataset.tol === %q`, tol))
		if got := b.diffStats().Differing; got != strconv.Itoa(e.Differing[tol]) {
			t.Errorf("tolerance %s: %s differing, want %d", tol, got, e.Differing[tol])
		}
	}

	// A − B as .npy: float64, the fixture's values (−Inf included).
	data := b.download(`[data-action=download-diff-npy]`, downloads, done, "target-row0-minus-prediction-row0.npy")
	shape, vals := readNPYFloat64(t, data)
	if !reflect.DeepEqual(shape, e.Shape) || len(vals) != len(e.Diff) {
		t.Fatalf(".npy of shape %v with %d values, want %v", shape, len(vals), e.Shape)
	}
	for k, v := range vals {
		if v != float64(e.Diff[k]) {
			t.Fatalf(".npy element %d = %v, want %v", k, v, e.Diff[k])
		}
	}
	b.screenshot("compare-tolerance")

	// The link reproduces the comparison in a fresh page.
	b.waitFor(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.get('tol') === '0.2'`)
	var link struct{ Search, Vs, I string }
	b.eval(`(p => ({Search: location.search, Vs: p.get('vs'), I: p.get('i')}))(new URL(location.href).searchParams)`, &link)
	if link.Vs != "prediction" || link.I != "3,0,0" {
		t.Errorf("link %+v: want vs=prediction, i=3,0,0", link)
	}
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link.Search))
	fresh.waitFor(`document.querySelector('[data-role=diff-stats]') !== null`)
	if got := fresh.diffStats(); got.Differing != "2" || got.MaxAbs != "0.25" || got.Tol != "0.2" {
		t.Errorf("the link's diff stats %+v", got)
	}
	_, _, want3 := b.panePixels("diff")
	fresh.waitPane("the link's A − B", "diff", W, H, want3)
	for _, scheme := range []string{"light", "dark"} {
		fresh.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range fresh.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		fresh.screenshot("compare-link-" + scheme)
	}

	// Another shape, another value type, a null side: a message naming
	// both; the inspector shows A alone.
	for _, c := range []struct {
		choice, row string
		want        string
	}{
		{"3", "", "Cannot compare target, row 0 (float32 5×12×16) with thumb, row 0 (float32 12×16): their shapes differ."},
		{"2", "", "Cannot compare target, row 0 (float32 5×12×16) with baseline, row 0 (float64 5×12×16): their value types differ."},
		{"0", "2", "Cannot compare target, row 0 (float32 5×12×16) with prediction, row 2: prediction, row 2 is null."},
	} {
		b.setValue(`select[data-role=compare-select]`, c.choice)
		if c.row != "" {
			b.waitFor(`document.querySelector('input[data-role=compare-row]') !== null`)
			b.setValue(`input[data-role=compare-row]`, c.row)
		}
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=compare-note]')?.textContent === %q`, c.want))
		var n struct{ Panes, Slices, Stats int }
		b.eval(`({Panes: document.querySelectorAll('[data-role=compare-panes]').length, Slices: document.querySelectorAll('canvas[data-role=slice]').length,
			Stats: document.querySelectorAll('[data-role=inspector] [data-role=stats]').length})`, &n)
		if n.Panes != 0 || n.Slices != 1 || n.Stats != 1 {
			t.Errorf("%q: %+v, want A's picture and statistics alone", c.want, n)
		}
	}
	b.screenshot("compare-shape-mismatch")

	// The target in another row: row 1 by default.
	b.setValue(`select[data-role=compare-select]`, "1")
	b.waitFor(`document.querySelector('[data-role=diff-stats]') !== null && document.querySelector('input[data-role=compare-row]').value === '1'`)
	er := exp.Diffs["target@0 - target@1"]
	if got := b.diffStats(); got.MaxAbs != exactText(er.MaxAbs) || got.MeanAbs != exactText(er.MeanAbs) || got.RMSE != exactText(er.RMSE) ||
		got.Differing != strconv.Itoa(er.Differing["0.2"]) || got.MaxIndex != "4,0,0" {
		t.Errorf("target row 0 − row 1: %+v, want max %v mean %v rmse %v differing %d", got, er.MaxAbs, er.MeanAbs, er.RMSE, er.Differing["0.2"])
	}
	var caption string
	b.eval(`document.querySelector('[data-side=b] .pane-caption').textContent`, &caption)
	if caption != "B: target, row 1" {
		t.Errorf("B's caption %q", caption)
	}
	for _, scheme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range b.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	b.run(emulation.SetDeviceMetricsOverride(360, 740, 1, true))
	b.waitFor(`[...document.querySelectorAll('[data-role=compare-panes] .viewport')].every(v => v.getBoundingClientRect().right <= 360 && v.getBoundingClientRect().width > 320)`)
	b.screenshot("compare-360")
	b.eval(`(d => { d.scrollTop = d.scrollHeight; return true })(document.querySelector('.inspector-backdrop'))`, nil)
	b.screenshot("compare-360-end")
}

// TestCompareSwipe compares compare.arrow's uint8 RGB image with its
// reconstruction: the statistics and PSNR (peak 255), A − B drawn from each
// pixel's channel of largest |A − B|, and the swipe: A left of the split, B
// right of it, exactly, at 50 % and 25 %; the swipe in the link.
func TestCompareSwipe(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	exp := testkit.ReadCompared(t)
	H, W, C := exp.Height, exp.Width, exp.Channels
	e := exp.Diffs["image@0 - reconstruction@0"]
	b := newBrowser(t)
	b.upload("../testdata/compare.arrow")
	b.waitOpened("compare.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] select[data-role=compare-select]') !== null`)
	var first string
	b.eval(`document.querySelector('select[data-role=compare-select] option[value="0"]').textContent`, &first)
	if first != "reconstruction" {
		t.Fatalf("first choice %q, want reconstruction", first)
	}
	b.setValue(`select[data-role=compare-select]`, "0")
	b.waitFor(`document.querySelector('[data-role=diff-stats]') !== null`)
	got := b.diffStats()
	psnr, _ := strconv.ParseFloat(got.PSNR, 64)
	if got.MaxAbs != "40" || got.MaxIndex != "6,9,0" || got.MeanAbs != exactText(e.MeanAbs) || got.RMSE != exactText(e.RMSE) ||
		got.Differing != strconv.Itoa(e.Differing["0"]) || math.Abs(psnr-e.PSNR) > 1e-12*e.PSNR {
		t.Errorf("image − reconstruction: %+v, want max 40 at 6,9,0, mean %v, rmse %v, differing %d, PSNR %v", got, e.MeanAbs, e.RMSE, e.Differing["0"], e.PSNR)
	}

	// A and B: each channel scaled from both pictures' min..max, rounded.
	lo, hi := 255, 0
	for _, v := range append(append([]int(nil), exp.Values.Image...), exp.Values.Reconstruction...) {
		lo, hi = min(lo, v), max(hi, v)
	}
	rgb := func(v []int) []int {
		out := make([]int, 0, H*W*4)
		for p := 0; p < H*W; p++ {
			for c := range C {
				l := math.Floor(float64(v[p*C+c]-lo)*(255/float64(hi-lo)) + 0.5)
				out = append(out, int(min(255, max(0, l))))
			}
			out = append(out, 255)
		}
		return out
	}
	pa, pb := rgb(exp.Values.Image), rgb(exp.Values.Reconstruction)
	b.waitPane("A", "a", W, H, pa)
	b.waitPane("B", "b", W, H, pb)
	// A − B: the channel of largest |A − B| (the first on a tie), on ±40.
	worst := make([]float64, H*W)
	for p := range worst {
		for c := range C {
			if v := float64(e.Diff[p*C+c]); c == 0 || math.Abs(v) > math.Abs(worst[p]) {
				worst[p] = v
			}
		}
	}
	b.waitPane("A − B", "diff", W, H, scalarPicture(worst, overlay.DiffColormap(), -40, 40))
	if got, want := b.hoverPane("a", 9, 6), "[H=6, W=9, C=:] = [179 29 79], B = [139 27 78], A − B = [40 2 1]"; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}

	b.setValue(`select[data-role=compare-mode]`, "swipe")
	b.waitFor(`document.querySelector('[data-role=compare-panes][data-mode=swipe] input[data-role=swipe]') !== null`)
	swipe := func(split int) []int {
		out := append([]int(nil), pb...)
		for y := range H {
			copy(out[(y*W)*4:(y*W+split)*4], pa[(y*W)*4:(y*W+split)*4])
		}
		return out
	}
	b.waitPane("swipe 50%", "swipe", W, H, swipe(8))
	// One camera, panes of one size.
	var widths []float64
	b.eval(`[...document.querySelectorAll('[data-role=compare-panes] .viewport')].map(v => v.getBoundingClientRect().width)`, &widths)
	if len(widths) != 2 || widths[0] != widths[1] {
		t.Errorf("swiped: pane widths %v, want two equal", widths)
	}
	b.screenshot("compare-swipe")
	b.setValue(`input[data-role=swipe]`, "25")
	b.waitPane("swipe 25%", "swipe", W, H, swipe(4))
	b.waitFor(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.get('swipe') === '25'`)
	var search string
	b.eval(`location.search`, &search)
	if !strings.Contains(search, "vs=reconstruction") {
		t.Errorf("link %q: no vs=reconstruction", search)
	}
	for _, scheme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range b.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
}
