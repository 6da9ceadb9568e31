//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// masks is testdata/masks_expected.json (gen_masks.mjs): the pictures'
// stored pixels and the masks' class ids, row-major, and masks_named's
// class names.
type masks struct {
	Height, Width int
	Image, Mask   []int
	Names         []string
}

func readMasks(t *testing.T) masks {
	var m masks
	readTestdataJSON(t, "masks_expected.json", &m)
	return m
}

// vocColour is the PASCAL VOC label colour of class id (VOClabelcolormap.m):
// the bits of the id dealt to red, green and blue three at a time, from
// each channel's bit 7 down (ids past 2^24 wrap). So 1 (aeroplane) is
// (128, 0, 0), 2 (0, 128, 0), 3 (128, 128, 0), 7 (128, 128, 128), 15
// (person) (192, 128, 128) and 255, void, (224, 224, 192).
func vocColour(id int) [3]int {
	var c [3]int
	v := id & (1<<24 - 1)
	for k := 7; k >= 0; k-- {
		c[0] |= (v & 1) << k
		c[1] |= (v >> 1 & 1) << k
		c[2] |= (v >> 2 & 1) << k
		v >>= 3
	}
	return c
}

// maskStyle is how the page should draw the mask: opacity, hidden classes,
// outline only, and the picture's column flip.
type maskStyle struct {
	alpha   float64
	hidden  map[int]bool
	outline bool
	flipX   bool
	none    bool // no overlay: the picture alone
}

// shown is the picture the inspector draws of the fixtures' uint8 image:
// each channel scaled from the picture's min..max (20..206) to 0..255 and
// rounded, as inspect.Render does it: floor((f − 20)·(255/186) + 0.5), the
// scale computed first (so the tie at f = 113, 127.5, lands on 127); with
// the mask blended at pixel (x, y) as floor((1 − α)·img + α·colour + 0.5)
// where its class is drawn.
func (m masks) shown(s maskStyle) []int { return m.shownOf(m.Mask, s) }

// shownOf is shown with the class ids ids (row-major, the picture's size)
// instead of the fixtures' mask, in their VOC colours (vocColour).
func (m masks) shownOf(ids []int, s maskStyle) []int {
	W, H := m.Width, m.Height
	class := func(y, x int) int { return ids[y*W+x] }
	edge := func(y, x int) bool {
		for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			ny, nx := y+d[0], x+d[1]
			if ny >= 0 && nx >= 0 && ny < H && nx < W && class(ny, nx) != class(y, x) {
				return true
			}
		}
		return false
	}
	out := make([]int, 0, W*H*4)
	for y := range H {
		for x := range W {
			sx := x
			if s.flipX {
				sx = W - 1 - x
			}
			c := class(y, sx)
			drawn := !s.none && !s.hidden[c] && (!s.outline || edge(y, sx))
			for k := range 3 {
				v := int(math.Floor(float64(m.Image[(y*W+sx)*3+k]-20)*(255.0/186) + 0.5))
				if drawn {
					v = int(math.Floor((1-s.alpha)*float64(v) + s.alpha*float64(vocColour(c)[k]) + 0.5))
				}
				out = append(out, v)
			}
			out = append(out, 255)
		}
	}
	return out
}

// slicePixels reads the inspector's picture: its size and RGBA pixels.
func (b *browser) slicePixels() (w, h int, pix []int) {
	b.t.Helper()
	var res struct {
		W, H int
		Pix  []int
	}
	b.eval(`(c => c ? {W: c.width, H: c.height, Pix: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data)} : {W: 0, H: 0, Pix: []})(
		document.querySelector('canvas[data-role=slice]'))`, &res)
	return res.W, res.H, res.Pix
}

// waitPicture waits until the inspector's picture is want (w × h RGBA),
// and reports the first pixels that differ when it does not come.
func (b *browser) waitPicture(what string, w, h int, want []int) {
	b.t.Helper()
	b.waitPixels(what+": the picture", b.slicePixels, w, h, want)
}

// waitPixels waits (15 s at most) until read gives want, w × h RGBA: a
// canvas drawn after an image decode or a worker's answer, which the page
// does not signal. When it does not come, it reports the size or the
// first pixels that differ, named by what, and stops the test.
func (b *browser) waitPixels(what string, read func() (int, int, []int), w, h int, want []int) {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		gw, gh, got := read()
		if gw == w && gh == h && reflect.DeepEqual(got, want) {
			return
		}
		if time.Now().After(deadline) {
			b.screenshot(b.t.Name())
			if gw != w || gh != h {
				b.t.Fatalf("%s is %d×%d, want %d×%d", what, gw, gh, w, h)
			}
			n := 0
			for p := 0; p < len(want) && n < 5; p += 4 {
				if !reflect.DeepEqual(got[p:p+4], want[p:p+4]) {
					b.t.Errorf("%s: pixel (x %d, y %d) = %v, want %v", what, p/4%w, p/4/w, got[p:p+4], want[p:p+4])
					n++
				}
			}
			b.t.FailNow()
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// hoverPicture moves the mouse over pixel (x, y) of the inspector's
// picture and returns the readout's text once it reads out the mask.
func (b *browser) hoverPicture(x, y int) string {
	b.t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + %d.5 * r.width / c.width, Y: r.top + %d.5 * r.height / c.height} })()`, x, y), &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
	b.waitFor(`document.querySelector('[data-role=readout] [data-role=mask-value]') !== null`)
	var text string // without the table of neighbours
	b.eval(`[...document.querySelector('[data-role=readout]').childNodes].filter(n => n.tagName !== 'TABLE').map(n => n.textContent).join('')`, &text)
	return text
}

// legendItem is one class of the legend as the page shows it.
type legendItem struct{ Class, Pressed, Label string }

func (b *browser) legend() []legendItem {
	b.t.Helper()
	var items []legendItem
	b.eval(`[...document.querySelectorAll('[data-role=legend] [data-class]')].map(e => ({
		Class: e.dataset.class, Pressed: e.getAttribute('aria-pressed'), Label: e.textContent}))`, &items)
	return items
}

// TestMaskOverlay opens masks_tensor.arrow (apache-arrow: a uint8 [12, 16, 3]
// image tensor and a uint8 [12, 16] mask tensor of class ids) by URL and
// inspects the image: the mask is drawn by default at opacity 0.5, class 0
// hidden, every pixel as the blend formula gives it; none shows the
// picture alone; opacity 0.7, a class hidden from the legend, outlines only
// and a flip each give their exact pixels; the readout gives both values;
// axes other than height and width turn the overlay off and say why; the
// link, in a fresh page, gives the same pixels; axe finds nothing in either
// theme.
func TestMaskOverlay(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	m := readMasks(t)
	W, H := m.Width, m.Height
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_tensor.arrow"))
	b.waitOpened("masks_tensor.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] select[data-role=overlay-select]')?.value === '0'`)

	var options []string
	b.eval(`[...document.querySelectorAll('select[data-role=overlay-select] option')].map(o => o.textContent)`, &options)
	if want := []string{"none", "mask", "pred"}; !reflect.DeepEqual(options, want) {
		t.Errorf("overlay choices %q, want %q", options, want)
	}
	var reason string
	b.eval(`document.querySelector('[data-role=overlay-reason]').textContent`, &reason)
	if want := `mask: 12×16 uint8 class ids, same size as image; named like a mask ("mask")`; reason != want {
		t.Errorf("reason %q, want %q", reason, want)
	}
	def := maskStyle{alpha: 0.5, hidden: map[int]bool{0: true}}
	b.waitPicture("default overlay", W, H, m.shown(def))
	// (x 3, y 3), inside class 1: drawn (49, 80, 118), VOC (128, 0, 0) at 0.5.
	if got := m.shown(def)[(3*W+3)*4:][:3]; !reflect.DeepEqual(got, []int{89, 40, 59}) {
		t.Errorf("the formula's pixel (3, 3) = %v, want [89 40 59]", got)
	}
	if got, want := b.legend(), []legendItem{{"0", "false", "0"}, {"1", "true", "1"}, {"2", "true", "2"}, {"3", "true", "3"}, {"7", "true", "7"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("legend %+v, want %+v", got, want)
	}

	b.setValue(`select[data-role=overlay-select]`, "-1")
	b.waitPicture("no overlay", W, H, m.shown(maskStyle{none: true}))
	b.waitFor(`document.querySelector('[data-role=legend]') === null && document.querySelector('[data-role=overlay-opacity]') === null`)
	b.setValue(`select[data-role=overlay-select]`, "0")
	b.waitPicture("the mask again", W, H, m.shown(def))
	// Exported: the picture with its overlay, as a PNG of the same pixels.
	downloads, done := b.allowDownloads()
	if pix := readPNGPixels(t, b.download(`[data-action=download-png]`, downloads, done, "image-row0.png")); !reflect.DeepEqual(pix, m.shown(def)) {
		t.Errorf("the exported PNG's pixels differ from the overlay's")
	}

	b.setValue(`input[data-role=overlay-opacity]`, "70")
	b.waitFor(`document.querySelector('[data-role=overlay-pct]')?.textContent === '70%'`)
	styled := maskStyle{alpha: 0.7, hidden: map[int]bool{0: true}}
	b.waitPicture("opacity 0.7", W, H, m.shown(styled))

	b.run(chromedp.Click(`[data-role=legend] [data-class="2"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=legend] [data-class="2"]').getAttribute('aria-pressed') === 'false'`)
	styled.hidden = map[int]bool{0: true, 2: true}
	b.waitPicture("class 2 hidden", W, H, m.shown(styled))

	b.run(chromedp.Click(`input[data-role=overlay-outline]`, chromedp.ByQuery))
	outlined := styled
	outlined.outline = true
	b.waitPicture("outlines", W, H, m.shown(outlined))
	if p := m.shown(outlined)[(3*W+3)*4:][:3]; !reflect.DeepEqual(p, m.shown(maskStyle{none: true})[(3*W+3)*4:][:3]) {
		t.Errorf("outline: interior pixel (3, 3) = %v, changed", p)
	}
	b.run(chromedp.Click(`input[data-role=overlay-outline]`, chromedp.ByQuery))
	b.waitPicture("filled again", W, H, m.shown(styled))

	// Pixel (x 10, y 8): stored (140, 158, 118), class 2 (hidden, still read out).
	if got, want := b.hoverPicture(10, 8), "[H=8, W=10, C=:] = [140 158 118], mask = 2"; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}

	b.run(chromedp.Click(`[data-action=flip-x]`, chromedp.ByQuery))
	styled.flipX = true
	b.waitPicture("flipped columns", W, H, m.shown(styled))
	if got, want := b.hoverPicture(5, 8), "[H=8, W=10, C=:] = [140 158 118], mask = 2"; got != want {
		t.Errorf("readout after the flip %q, want %q", got, want)
	}
	b.screenshot("mask-overlay")

	// The link holds the overlay and its style.
	b.waitFor(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.get('flip') === 'x'`)
	var link struct {
		Search                       string
		Overlay, Opacity, Hide, Flip string
	}
	b.eval(`(p => ({Search: location.search, Overlay: p.get('overlay'), Opacity: p.get('opacity'), Hide: p.get('hide'), Flip: p.get('flip')}))(new URL(location.href).searchParams)`, &link)
	if link.Overlay != "mask" || link.Opacity != "70" || link.Hide != "0,2" {
		t.Errorf("link %+v: want overlay=mask, opacity=70, hide=0,2", link)
	}
	_, _, before := b.slicePixels()

	// Rows H, columns C: the overlay is off and says why; the picture shows.
	b.setValue(`select[data-role=axis-x]`, "2")
	b.waitFor(`document.querySelector('[data-role=overlay-note]') !== null`)
	var note string
	b.eval(`document.querySelector('[data-role=overlay-note]').textContent`, &note)
	if want := "No overlay: the picture shows dimensions 0: H (12) × 2: C (3), and the mask follows only the image's height and width (0: H (12) × 1: W (16))."; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if w, h, _ := b.slicePixels(); w != 3 || h != H {
		t.Errorf("with axes H, C the picture is %d×%d, want 3×%d", w, h, H)
	}

	// A fresh page on the link: the same pixels; axe in both themes.
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link.Search))
	fresh.waitFor(`document.querySelector('[data-role=inspector] [data-role=legend]') !== null`)
	fresh.waitPicture("the link in a fresh page", W, H, before)
	if !reflect.DeepEqual(before, m.shown(styled)) {
		t.Error("the picture before the link is not the one expected")
	}
	for _, scheme := range []string{"light", "dark"} {
		fresh.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range fresh.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		fresh.screenshot("mask-overlay-link-" + scheme)
	}
}

// TestMaskOverlayHF opens Hugging Face layouts: masks_hf.arrow and
// .parquet (scene_parse_150's image, annotation and scene_category: the
// annotation a grey PNG of class ids) and masks_named.arrow (a 2-D List of ClassLabel
// naming the pixel classes). The annotation decoded from its PNG is drawn
// with the exact pixels; its legend has ids only (scene_category's names
// name scenes, not pixels); an annotation of another size and a null one
// each say so, the picture still shown; the named mask's legend and
// readout give the names.
func TestMaskOverlayHF(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	m := readMasks(t)
	W, H := m.Width, m.Height
	b := newBrowser(t)
	b.upload("../testdata/masks_hf.arrow")
	b.waitOpened("masks_hf.arrow")
	open := func(row int) {
		t.Helper()
		b.run(chromedp.Click(fmt.Sprintf(`[data-row="%d"] [data-tensor][data-field="image"]`, row), chromedp.ByQuery))
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector][data-row="%d"] canvas[data-role=slice]') !== null
			&& document.querySelector('[data-role=inspector] select[data-role=overlay-select]') !== null`, row))
	}
	closeInspector := func() {
		t.Helper()
		b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
		b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	}
	note := func() string {
		var s string
		b.eval(`document.querySelector('[data-role=overlay-note]')?.textContent ?? ''`, &s)
		return s
	}
	def := maskStyle{alpha: 0.5, hidden: map[int]bool{0: true}}

	open(0)
	b.waitPicture("annotation", W, H, m.shown(def))
	if got, want := b.legend(), []legendItem{{"0", "false", "0"}, {"1", "true", "1"}, {"2", "true", "2"}, {"3", "true", "3"}, {"7", "true", "7"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("legend %+v, want %+v (no names: scene_category's are scenes')", got, want)
	}
	if got, want := b.hoverPicture(3, 3), "[height=3, width=3, channel=:] = [56 78 106], annotation = 1"; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}
	b.screenshot("mask-overlay-hf")
	closeInspector()

	// Row 1: the annotation is 8×6. Offered, not drawn by default; chosen,
	// it says why, and the picture stays.
	open(1)
	var value string
	b.eval(`document.querySelector('select[data-role=overlay-select]').value`, &value)
	if value != "-1" {
		t.Errorf("row 1: overlay %q by default, want none (-1)", value)
	}
	b.setValue(`select[data-role=overlay-select]`, "0")
	b.waitFor(`document.querySelector('[data-role=overlay-note]') !== null`)
	if got, want := note(), "No overlay: annotation is 6×8 but image is 12×16 (height × width)."; got != want {
		t.Errorf("row 1: %q, want %q", got, want)
	}
	b.waitPicture("row 1's picture alone", W, H, m.shown(maskStyle{none: true}))
	b.screenshot("mask-overlay-size")
	closeInspector()

	// Row 2: the annotation is null.
	open(2)
	b.waitFor(`document.querySelector('[data-role=overlay-note]') !== null`)
	if got, want := note(), "No overlay: annotation is null in this row."; got != want {
		t.Errorf("row 2: %q, want %q", got, want)
	}
	b.waitPicture("row 2's picture alone", W, H, m.shown(maskStyle{none: true}))
	closeInspector()

	// masks_named.arrow: the names of the ClassLabel in the legend and the
	// readout; 7 is past the names.
	b.upload("../testdata/masks_named.arrow")
	b.waitOpened("masks_named.arrow")
	open(0)
	b.waitPicture("named mask", W, H, m.shown(def))
	want := []legendItem{{"0", "false", `0 "background"`}, {"1", "true", `1 "road"`}, {"2", "true", `2 "car"`}, {"3", "true", `3 "person"`}, {"7", "true", "7"}}
	if got := b.legend(); !reflect.DeepEqual(got, want) {
		t.Errorf("legend %+v, want %+v", got, want)
	}
	if got, want := b.hoverPicture(10, 8), `[height=8, width=10, channel=:] = [140 158 118], label = 2 "car"`; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}
	// Showing class 0 blends the background too.
	b.run(chromedp.Click(`[data-role=legend] [data-class="0"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=legend] [data-class="0"]').getAttribute('aria-pressed') === 'true'`)
	b.waitPicture("background shown", W, H, m.shown(maskStyle{alpha: 0.5, hidden: map[int]bool{}}))
	b.screenshot("mask-overlay-named")
	closeInspector()

	// masks_hf.parquet, as the Hub serves the set, by URL: the same overlay.
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_hf.parquet"))
	b.waitOpened("masks_hf.parquet")
	open(0)
	b.waitPicture("annotation from Parquet", W, H, m.shown(def))
	if got := b.legend(); len(got) != 5 || got[1] != (legendItem{"1", "true", "1"}) {
		t.Errorf("Parquet: legend %+v", got)
	}
}

// readPNGPixels decodes a PNG file into its RGBA values, row by row.
func readPNGPixels(t *testing.T, data []byte) []int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var pix []int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			pix = append(pix, int(c.R), int(c.G), int(c.B), int(c.A))
		}
	}
	return pix
}
