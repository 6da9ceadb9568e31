//go:build !wasm

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// npyFloat32 is an independent .npy (format 1.0) encoder for the test.
func npyFloat32(shape []int, vals []float32) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = fmt.Sprint(d)
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", strings.Join(dims, ", "))
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	out := []byte("\x93NUMPY\x01\x00")
	out = append(out, byte(len(header)), byte(len(header)>>8))
	out = append(out, header...)
	for _, v := range vals {
		bits := math.Float32bits(v)
		out = append(out, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
	}
	return out
}

// TestInspector opens the inspector on a 4-D tensor, moves a slider, changes
// the colormap, the channel and the displayed dimensions, hovers a known
// element, downloads a .npy and closes with Escape.
func TestInspector(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, row1 := tensor4DFile(t)
	b := newBrowser(t)
	downloads, done := b.allowDownloads()

	b.upload(path)
	b.waitOpened("tensor4d.arrow")
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="t"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"]') !== null`)

	// The default view shows H×W with C as colour channels; switch to a colormap.
	var channel string
	b.eval(`document.querySelector('select[data-role=channel]').value`, &channel)
	if channel != "1" {
		t.Errorf("default channel dimension %q, want 1 (C)", channel)
	}
	b.setValue(`select[data-role=channel]`, "-1")
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	var labels []string
	b.eval(`[...document.querySelectorAll('input[type=range][data-dim]')].map(e => e.dataset.dim + '=' + document.querySelector('label[for="' + e.id + '"]').textContent)`, &labels)
	if want := []string{"0=0: N (2)", "1=1: C (3)"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("sliders %q, want %q", labels, want)
	}
	b.setValue(`input[type=range][data-dim="1"]`, "2")
	b.setValue(`select[data-role=colormap]`, "magma")
	b.waitFor(`document.querySelector('select[data-role=colormap]').value === 'magma' && document.querySelector('input[type=number][data-dim-index="1"]').value === '2'`)

	// Show W as rows: X takes H, so the picture is 4 wide and 5 high.
	b.setValue(`select[data-role=axis-y]`, "3")
	b.waitFor(`(c => c && c.width === 4 && c.height === 5)(document.querySelector('canvas[data-role=slice]'))`)

	// Hover image pixel (x=1, y=3): H=1, W=3, with N=0 and C=2 from the sliders.
	var pt struct{ X, Y float64 }
	b.eval(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + 1.5 * r.width / c.width, Y: r.top + 3.5 * r.height / c.height} })()`, &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	b.waitFor(`document.querySelector('[data-role=readout][data-index]') !== null`)
	var readout struct{ Index, Value string }
	b.eval(`(e => ({Index: e.dataset.index, Value: e.dataset.value}))(document.querySelector('[data-role=readout]'))`, &readout)
	if readout.Index != "0,2,1,3" || readout.Value != "10213" {
		t.Errorf("readout %+v, want index 0,2,1,3 value 10213", readout)
	}
	var stats struct{ Min, Max, NaN string }
	b.eval(`(e => ({Min: e.dataset.min, Max: e.dataset.max, NaN: e.dataset.nan}))(document.querySelector('[data-role=stats]'))`, &stats)
	if stats != (struct{ Min, Max, NaN string }{"10000", "11234", "0"}) {
		t.Errorf("stats %+v, want min 10000 max 11234 nan 0", stats)
	}

	var col struct{ Rows, Min, Max string }
	b.waitFor(`document.querySelector('[data-role=column-stats]') !== null`)
	b.eval(`(e => ({Rows: e.dataset.rows, Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=column-stats]'))`, &col)
	if col != (struct{ Rows, Min, Max string }{"2", "0", "11234"}) {
		t.Errorf("column stats %+v, want 2 rows from 0 to 11234", col)
	}
	b.screenshot("inspector")
	// The pointer leaving the picture for the side's buttons clears the
	// readout but keeps its room: nothing moves under the pointer.
	var btn struct{ X, Y float64 }
	b.eval(`(() => { const e = document.querySelector('[data-action=download-npy]'); e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();
		return {X: r.left + r.width / 2, Y: r.top + r.height / 2} })()`, &btn)
	b.eval(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + 1.5 * r.width / c.width, Y: r.top + 3.5 * r.height / c.height} })()`, &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	b.waitFor(`document.querySelector('[data-role=readout][data-index]') !== null`)
	b.run(chromedp.MouseEvent(input.MouseMoved, btn.X, btn.Y))
	b.waitFor(`document.querySelector('[data-role=readout][data-index]') === null`)
	var under string
	b.eval(fmt.Sprintf(`document.elementFromPoint(%v, %v)?.dataset.action ?? ''`, btn.X, btn.Y), &under)
	if under != "download-npy" {
		t.Errorf("the Export buttons moved as the readout cleared: %q under the pointer, not download-npy", under)
	}
	got := b.download(`[data-action=download-npy]`, downloads, done, "t-row1.npy")
	if want := npyFloat32([]int{2, 3, 4, 5}, row1); !bytes.Equal(got, want) {
		t.Errorf("downloaded .npy (%d bytes) differs from the expected %d bytes", len(got), len(want))
	}

	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// Variable shape tensors: the column's distribution of shapes.
	b.upload("../testdata/js_variable.arrow")
	b.waitOpened("js_variable.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="vt"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="vt"] [data-role=shapes]') !== null`)
	var shapes []string
	b.eval(`[...document.querySelectorAll('[data-role=shapes] li[data-shape]')].map(e => e.dataset.shape + 'x' + e.dataset.rows)`, &shapes)
	if want := []string{"2,2,3x1", "1,3,3x1", "0,2,3x1"}; !reflect.DeepEqual(shapes, want) {
		t.Errorf("shape distribution %q, want %q", shapes, want)
	}
	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// A 1-D tensor has no picture: its numbers are listed, opened with the keyboard.
	b.upload("../testdata/js_big.arrow")
	b.waitOpened("js_big.arrow")
	b.run(chromedp.Focus(`[data-row="0"] [data-tensor][data-field="embedding"]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=values]') !== null`)
	var values string
	b.eval(`document.querySelector('[data-role=values]').textContent`, &values)
	if values != "[-1 -0.625 -0.25 0.125 0.5 0.875 -0.75 -0.375]" {
		t.Errorf("values of the 1-D tensor: %q", values)
	}
}

// TestColumnStatsCancel computes the statistics of a column of 2560 images
// in 40 record batches read from a slow disk: the inspector shows the rows
// done over both passes, Cancel stops, and computing again gives the exact
// range of every pixel of the column.
func TestColumnStatsCancel(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path := batchesFile(t, "stats.arrow", false, 40, 64)
	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("stats.arrow")
	b.slowReads(0, 300)
	b.run(chromedp.Click(`[data-row="0"] [data-field=image]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-action=column-stats]') !== null`)
	b.run(chromedp.Click(`[data-role=inspector] [data-action=column-stats]`, chromedp.ByQuery))
	b.waitFor(`+document.querySelector('[data-role=progress][data-task=column-stats]')?.dataset.rowsDone > 0`)
	var prog struct{ Done, Total int }
	b.eval(`(e => ({Done: +e.dataset.rowsDone, Total: +e.dataset.rowsTotal}))(document.querySelector('[data-role=progress][data-task=column-stats]'))`, &prog)
	if prog.Total != 2*2560 || prog.Done >= prog.Total {
		t.Errorf("column progress %+v, want part of 5120 rows (2560, two passes)", prog)
	}
	b.run(chromedp.Click(`[data-role=progress][data-task=column-stats] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=progress]') === null
		&& document.querySelector('[data-role=inspector] [data-action=column-stats]') !== null`)

	b.eval(`window.__slow = false`, nil)
	b.run(chromedp.Click(`[data-role=inspector] [data-action=column-stats]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=column-stats][data-rows]') !== null`)
	var col struct{ Rows, Min, Max string }
	b.eval(`(e => ({Rows: e.dataset.rows, Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=column-stats]'))`, &col)
	// Pixel bytes are (row + k) % 251: 0 to 250.
	if col != (struct{ Rows, Min, Max string }{"2560", "0", "250"}) {
		t.Errorf("column stats %+v, want 2560 rows from 0 to 250", col)
	}
	// The panel in the inspector's side, light and dark, wide and on a
	// 360-pixel screen.
	inView := `document.querySelector('[data-role=column-stats]').scrollIntoView({block: 'start'})`
	b.eval(inView, nil)
	b.themesAxe("inspector-column")
	b.run(chromedp.EmulateViewport(360, 640))
	b.eval(inView, nil)
	b.narrow("inspector-column-360", `[data-role=column-stats]`)
}

// touch sends one touch event with the given fingers (viewport CSS pixels;
// none for a touchEnd).
func (b *browser) touch(typ input.TouchType, fingers ...[2]float64) {
	b.t.Helper()
	pts := make([]*input.TouchPoint, len(fingers))
	for i, f := range fingers {
		pts[i] = &input.TouchPoint{X: f[0], Y: f[1], ID: float64(i + 1), RadiusX: 1, RadiusY: 1, Force: 1}
	}
	b.run(chromedp.ActionFunc(func(ctx context.Context) error {
		return input.DispatchTouchEvent(typ, pts).Do(ctx)
	}))
}

// readoutAt taps the inspector's picture at viewport position p, waits for
// the readout to show the element at index want ("n,c,h,w") and returns its
// value.
func (b *browser) readoutAt(p [2]float64, want string) (value string) {
	b.t.Helper()
	b.touch(input.TouchStart, p)
	b.touch(input.TouchEnd)
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=readout]')?.dataset.index === %q`, want))
	b.eval(`document.querySelector('[data-role=readout]').dataset.value`, &value)
	return value
}

// TestTouch uses the viewer as a phone does, at 360×640 with touch input: a
// tap on a tensor cell opens the inspector, which fits the screen (the page
// never scrolls sideways); a tap on the picture reads out the element under
// the finger (its value checked against the file's), one finger drags, two
// fingers pinch (zoom 2 for fingers twice as far apart) and drag at once,
// keeping the element under the fingers under them. axe-core finds no
// serious or critical violation at this size, with the schema sheet open
// or the inspector.
func TestTouch(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	b.run(emulation.SetDeviceMetricsOverride(360, 640, 2, true),
		emulation.SetTouchEmulationEnabled(true).WithMaxTouchPoints(5))
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	path, row1 := tensor4DFile(t)
	b.upload(path)
	b.waitOpened("tensor4d.arrow")
	for _, v := range b.axe() {
		t.Errorf("360 px, file: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'true'`)
	for _, v := range b.axe() {
		t.Errorf("360 px, schema sheet: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.screenshot("touch-schema")
	b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'false'`)

	// A tap on row 1's cell opens the inspector.
	var cell [2]float64
	b.eval(`(r => [r.left + r.width / 2, r.top + r.height / 2])(document.querySelector('[data-row="1"] [data-tensor][data-field="t"]').getBoundingClientRect())`, &cell)
	b.touch(input.TouchStart, cell)
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="t"][data-row="1"] canvas[data-role=slice]') !== null`)
	b.setValue(`select[data-role=channel]`, "-1") // one value per pixel
	b.waitFor(`document.querySelectorAll('input[type=range][data-dim]').length === 2`)
	for _, v := range b.axe() {
		t.Errorf("360 px, inspector: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	var fit struct {
		ScrollW, W           int
		Left, Right, VW, VH  float64
		CanvasW, CanvasH     int
		ViewportL, ViewportT float64
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=inspector] .viewport').getBoundingClientRect(), c = document.querySelector('canvas[data-role=slice]'), r = c.getBoundingClientRect();
		return {ScrollW: document.scrollingElement.scrollWidth, W: innerWidth, Left: v.left, Right: v.right, VW: r.width, VH: r.height,
			CanvasW: c.width, CanvasH: c.height, ViewportL: r.left, ViewportT: r.top} })()`, &fit)
	if fit.ScrollW > fit.W || fit.Left < 0 || fit.Right > float64(fit.W) {
		t.Errorf("the inspector does not fit 360 px: page %d px wide in %d, picture from %.0f to %.0f px", fit.ScrollW, fit.W, fit.Left, fit.Right)
	}
	if fit.CanvasW != 5 || fit.CanvasH != 4 {
		t.Fatalf("the picture is %d×%d, want W×H = 5×4", fit.CanvasW, fit.CanvasH)
	}
	b.screenshot("touch-inspector")
	// Element (x, y) of the picture is drawn from (x, y)·k (k CSS pixels per
	// element at zoom 1).
	k := fit.VW / 5
	at := func(x, y float64) [2]float64 { return [2]float64{fit.ViewportL + x*k, fit.ViewportT + y*k} }
	value := func(index string) string {
		var n, c, h, w int
		if _, err := fmt.Sscanf(index, "%d,%d,%d,%d", &n, &c, &h, &w); err != nil {
			t.Fatalf("readout index %q: %v", index, err)
		}
		return strconv.FormatFloat(float64(row1[((n*3+c)*4+h)*5+w]), 'g', -1, 32)
	}
	// Each check taps another element than the one before (the readout
	// waits for the index tapped).
	check := func(what string, p [2]float64, wantH, wantW int) {
		t.Helper()
		index := fmt.Sprintf("0,0,%d,%d", wantH, wantW)
		if got, want := b.readoutAt(p, index), value(index); got != want {
			t.Errorf("%s: the readout says %s at [%s], the file has %s", what, got, index, want)
		}
	}
	check("tap", at(3.5, 2.5), 2, 3)

	// One finger drags the picture one element right and down.
	b.touch(input.TouchStart, at(1.5, 1.5))
	b.touch(input.TouchMove, at(2, 2))
	b.touch(input.TouchMove, at(2.5, 2.5))
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-action=reset-zoom]') !== null`)
	check("after a drag", at(3.5, 2.5), 1, 2)
	b.run(chromedp.Click(`[data-action=reset-zoom]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=reset-zoom]') === null`)

	// Two fingers spread from 1 to 2 elements apart about the centre of
	// element (2, 1) and move it to (2.5, 2.5): zoom 2, the element under
	// the fingers stays under them.
	b.touch(input.TouchStart, at(2, 1.5), at(3, 1.5))
	b.touch(input.TouchMove, at(1.75, 2), at(3.25, 2))
	b.touch(input.TouchMove, at(1.5, 2.5), at(3.5, 2.5))
	b.touch(input.TouchEnd)
	b.waitFor(`document.querySelector('[data-role=zoom]')?.textContent === 'zoom 2.0\u00d7'`)
	// At zoom 2 each element is 2k wide: one element right of the fingers'
	// midpoint is the middle of element 3.
	check("after a pinch, one element right", at(4.5, 2.5), 1, 3)
	check("after a pinch", at(2.5, 2.5), 1, 2)
	b.screenshot("touch-pinch")
}
