//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// boxesTwin is testdata/boxes_expected.json (gen_boxes.mjs):
// each row's boxes placed on its image by the formats' definitions.
type boxesTwin struct {
	HF struct {
		Width, Height int
		Names         []string
		Rows          []*struct {
			Category   []int64
			XYWH, XYXY boxesPlaced
		}
	}
	YOLO struct {
		Width, Height int
		Rows          []*struct{ CXCYWHN boxesPlaced }
	}
}

type boxesPlaced struct {
	Boxes []struct {
		Index  int
		Fate   string
		Pixels struct{ Left, Top, Right, Bottom int }
	}
	Drawn, Clipped, Outside, Invalid int
}

func readBoxesTwin(t *testing.T) boxesTwin {
	var e boxesTwin
	readTestdataJSON(t, "boxes_expected.json", &e)
	return e
}

// readTestdataJSON reads the JSON file testdata/rel into v.
func readTestdataJSON(t *testing.T, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", rel))
	if err == nil {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// boxColour is a box's colour: the PASCAL VOC label colour of its category
// + 1 (VOClabelcolormap.m), (128, 0, 0) without a category.
func boxColour(category int64, has bool) [3]int {
	if !has {
		category = 0
	}
	return vocColour(int(category + 1))
}

// ring is a box drawn: its pixels (inclusive), colour and edge width.
type ring struct {
	left, top, right, bottom int
	colour                   [3]int
	edge                     int
}

// rings are the boxes drawn of a placing, in order, edge pixels wide; the
// box of index lit (-1: none) last and twice as wide. cat gives a box's
// category (nil: none).
func (p boxesPlaced) rings(cat []int64, edge, lit int) []ring {
	var out []ring
	var last *ring
	for _, b := range p.Boxes {
		if b.Fate != "drawn" && b.Fate != "clipped" {
			continue
		}
		r := ring{b.Pixels.Left, b.Pixels.Top, b.Pixels.Right, b.Pixels.Bottom, boxColour(0, false), edge}
		if cat != nil {
			r.colour = boxColour(cat[b.Index], true)
		}
		if b.Index == lit {
			r.edge = 2 * edge
			last = &r
			continue
		}
		out = append(out, r)
	}
	if last != nil {
		out = append(out, *last)
	}
	return out
}

// flipX mirrors rings on a picture w pixels wide; transpose swaps x and y.
func flipX(rs []ring, w int) []ring {
	out := make([]ring, len(rs))
	for i, r := range rs {
		r.left, r.right = w-1-r.right, w-1-r.left
		out[i] = r
	}
	return out
}

func transpose(rs []ring) []ring {
	out := make([]ring, len(rs))
	for i, r := range rs {
		r.left, r.top, r.right, r.bottom = r.top, r.left, r.bottom, r.right
		out[i] = r
	}
	return out
}

// withRings is an RGBA picture w pixels wide with the rings drawn over it:
// every pixel of a box's rectangle less than its edge from the border
// takes its colour.
func withRings(pix []int, w int, rs []ring) []int {
	out := append([]int(nil), pix...)
	for _, r := range rs {
		for y := r.top; y <= r.bottom; y++ {
			for x := r.left; x <= r.right; x++ {
				if x-r.left < r.edge || r.right-x < r.edge || y-r.top < r.edge || r.bottom-y < r.edge {
					p := (y*w + x) * 4
					out[p], out[p+1], out[p+2], out[p+3] = r.colour[0], r.colour[1], r.colour[2], 255
				}
			}
		}
	}
	return out
}

// boxPicture is the fixtures' picture, h×w RGBA: pixel (y, x) = (6x + 20,
// 8y + 30, 100 + x + y); scaled, each channel from the picture's min..max
// to 0..255 as the inspector draws a uint8 image (floor((f − lo)·(255/(hi −
// lo)) + 0.5), the scale computed first); transposed, x and y swapped.
func boxPicture(h, w int, scaled, transposed bool) (pix []int, pw int) {
	lo, hi := 20.0, math.Max(6*float64(w-1)+20, 8*float64(h-1)+30)
	ph := h
	pw = w
	if transposed {
		pw, ph = h, w
	}
	for y := range ph {
		for x := range pw {
			iy, ix := y, x
			if transposed {
				iy, ix = x, y
			}
			for _, f := range []int{6*ix + 20, 8*iy + 30, 100 + ix + iy} {
				if scaled {
					f = int(math.Floor((float64(f)-lo)*(255.0/(hi-lo)) + 0.5))
				}
				pix = append(pix, f)
			}
			pix = append(pix, 255)
		}
	}
	return pix, pw
}

// boxTexts reads what the inspector says of its boxes.
type boxTexts struct {
	Count, Format, Reason, Counts, Note string
	Drawn, Clipped, Outside, Invalid    string
	Errors, Labels, Items               []string
}

func (b *browser) boxTexts() boxTexts {
	b.t.Helper()
	var s boxTexts
	b.eval(`(() => {
		const q = (s) => document.querySelector(s), all = (s) => [...document.querySelectorAll(s)].map(e => e.textContent);
		const c = q('[data-role=box-counts]')?.dataset ?? {};
		return {Count: q('[data-role=boxes]')?.dataset.count ?? '', Format: q('select[data-role=box-format]')?.value ?? '',
			Reason: q('[data-role=box-format-reason]')?.textContent ?? '', Counts: q('[data-role=box-counts]')?.textContent ?? '',
			Note: q('[data-role=box-note]')?.textContent ?? '',
			Drawn: c.drawn ?? '', Clipped: c.clipped ?? '', Outside: c.outside ?? '', Invalid: c.invalid ?? '',
			Errors: all('[data-role=box-errors] li'), Labels: all('[data-role=box-label]'),
			Items: [...document.querySelectorAll('[data-role=boxes] button[data-box]')].map(e => e.dataset.box + ': ' + e.textContent)};
	})()`, &s)
	return s
}

// pointAt moves the mouse to the centre of the element sel.
func (b *browser) pointAt(sel string) {
	b.t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(r => ({X: r.left + r.width / 2, Y: r.top + r.height / 2}))(document.querySelector(%q).getBoundingClientRect())`, sel), &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
}

// pointAtPixel moves the mouse over pixel (x, y) of the inspector's
// picture.
func (b *browser) pointAtPixel(x, y int) {
	b.t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(() => { const c = document.querySelector('canvas[data-role=slice]'); const r = c.getBoundingClientRect();
		return {X: r.left + %d.5 * r.width / c.width, Y: r.top + %d.5 * r.height / c.height} })()`, x, y), &pt)
	b.run(chromedp.MouseEvent(input.MouseMoved, pt.X, pt.Y))
}

// thumbnail waits until row's image thumbnail has its boxes drawn and
// returns its size and pixels.
func (b *browser) thumbnail(row int) (w, h int, pix []int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-field=image] canvas[data-marks]') !== null`, row))
	return b.canvas(row, "image")
}

// TestBoxesHF opens boxes_hf.arrow (apache-arrow, cppe-5's
// layout: an Image struct of PNGs and objects, a struct of lists whose bbox
// is COCO xywh and category a ClassLabel) by URL. The grid's thumbnails
// have their boxes' edges at the twin's pixels. The inspector guesses
// xywh from the areas and says so, draws three boxes with exact edge
// pixels and labels, counts one clipped, one outside and two invalid and
// says why each; a list item pointed at, focused or pressed draws its box
// two pixels wide; the readout names the box under the pointer; xyxy
// places them again; a flip mirrors them; axes other than height and width
// turn them off with the reason; the link, in a fresh page, gives the same
// picture; axe finds nothing in either theme nor at 360 pixels; another
// row names a class past the names, a null row says so.
func TestBoxesHF(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	e := readBoxesTwin(t)
	hf := e.HF
	W, H := hf.Width, hf.Height
	row0 := hf.Rows[0]
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_hf.arrow"))
	b.waitOpened("boxes_hf.arrow")

	// The thumbnails: the PNG's own pixels, the boxes' edges over them.
	raw, _ := boxPicture(H, W, false, false)
	if w, h, pix := b.thumbnail(0); w != W || h != H || !reflect.DeepEqual(pix, withRings(raw, W, row0.XYWH.rings(row0.Category, 1, -1))) {
		b.screenshot("boxes-thumbnail")
		t.Errorf("row 0's thumbnail (%d×%d) is not the picture with its boxes", w, h)
	}
	if w, h, pix := b.thumbnail(1); w != W || h != H || !reflect.DeepEqual(pix, withRings(raw, W, hf.Rows[1].XYWH.rings(hf.Rows[1].Category, 1, -1))) {
		t.Errorf("row 1's thumbnail (%d×%d) is not the picture with its boxes", w, h)
	}
	var cells []struct{ Boxes, Text string }
	b.eval(`[...document.querySelectorAll('[data-row] [data-tensor][data-field=image]')].map(e => ({Boxes: e.dataset.boxes, Text: e.querySelector('.summary').textContent}))`, &cells)
	if len(cells) != 3 || cells[0].Boxes != "3" || cells[1].Boxes != "2" || cells[2].Boxes != "0" {
		t.Errorf("cells %+v", cells)
	} else if want := "uint8 [24×32×3] (height,width,channel)PNG 32×24 RGB · 3 boxes"; cells[0].Text != want {
		t.Errorf("row 0's cell says %q, want %q", cells[0].Text, want)
	}
	b.screenshot("boxes-grid")

	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="3"]') !== null`)
	base, _ := boxPicture(H, W, true, false)
	drawn := withRings(base, W, row0.XYWH.rings(row0.Category, 1, -1))
	b.waitPicture("boxes drawn", W, H, drawn)
	want := boxTexts{Count: "3", Format: "xywh",
		Reason: "Format xywh, guessed: the stored areas equal width × height (box 0: 10 × 8 = 80): COCO xywh.",
		Counts: "objects of 6: 3 boxes drawn, 1 clipped at the image's edges, 1 outside the image, 2 invalid.",
		Drawn:  "3", Clipped: "1", Outside: "1", Invalid: "2",
		Errors: []string{"box 3: a coordinate is not finite: [NaN 2 5 5]", "box 4: negative height -3 (xywh [10 15 6 -3])",
			"box 5: outside the 32×24 image: x 40..45, y 2..7"},
		Labels: []string{"#0 Coverall", "#1 Mask", "#2 Gloves"},
		Items:  []string{"0: #0 Coverallx 4–14, y 3–11", "1: #1 Maskx 18–27, y 10–16", "2: #2 Glovesx 26–32, y 18–24 (clipped)"},
	}
	if got := b.boxTexts(); !reflect.DeepEqual(got, want) {
		t.Errorf("boxes:\n got %+v\nwant %+v", got, want)
	}
	// Box 0's corners: its top left edge pixel is Coverall's colour, the
	// pixel inside it and the one outside it the picture's.
	if c := drawn[(3*W+4)*4:][:3]; !reflect.DeepEqual(c, []int{128, 0, 0}) {
		t.Errorf("pixel (4, 3) = %v, want Coverall's (128, 0, 0)", c)
	}
	for _, p := range [][2]int{{5, 4}, {3, 3}, {14, 11}} {
		if c, want := drawn[(p[1]*W+p[0])*4:][:4], base[(p[1]*W+p[0])*4:][:4]; !reflect.DeepEqual(c, want) {
			t.Errorf("pixel %v = %v, want the picture's %v", p, c, want)
		}
	}
	b.screenshot("boxes-inspector")

	// The list: pointing at an item, focusing it, pressing it.
	b.pointAt(`[data-role=boxes] button[data-box="1"]`)
	b.waitPicture("box 1 pointed at", W, H, withRings(base, W, row0.XYWH.rings(row0.Category, 1, 1)))
	b.waitFor(`document.querySelector('[data-role=box-label][data-box="1"]').classList.contains('lit')`)
	b.pointAtPixel(5, 3) // on box 0's top edge
	b.waitFor(`document.querySelector('[data-role=readout] [data-role=box-value]')?.textContent === '; in #0 Coverall'`)
	b.waitPicture("the pointer left the list", W, H, drawn)
	b.eval(`document.querySelector('[data-role=boxes] button[data-box="2"]').focus()`, nil)
	b.waitPicture("box 2 focused", W, H, withRings(base, W, row0.XYWH.rings(row0.Category, 1, 2)))
	b.eval(`document.activeElement.blur()`, nil)
	b.waitPicture("box 2 blurred", W, H, drawn)
	b.run(chromedp.Click(`[data-role=boxes] button[data-box="0"]`, chromedp.ByQuery))
	b.pointAtPixel(20, 20)
	b.eval(`document.activeElement.blur()`, nil)
	b.waitFor(`document.querySelector('[data-role=boxes] button[data-box="0"]').getAttribute('aria-pressed') === 'true'`)
	b.waitPicture("box 0 pressed", W, H, withRings(base, W, row0.XYWH.rings(row0.Category, 1, 0)))
	b.run(chromedp.Click(`[data-role=boxes] button[data-box="0"]`, chromedp.ByQuery))
	b.pointAtPixel(20, 20)
	b.eval(`document.activeElement.blur()`, nil)
	b.waitPicture("box 0 released", W, H, drawn)

	// Another format: xyxy leaves one box, the others invalid.
	b.setValue(`select[data-role=box-format]`, "xyxy")
	b.waitFor(`document.querySelector('[data-role=boxes][data-count="1"]') !== null`)
	xyxy := withRings(base, W, row0.XYXY.rings(row0.Category, 1, -1))
	b.waitPicture("xyxy", W, H, xyxy)
	got := b.boxTexts()
	if want := "Format xyxy, as chosen; the file's would be xywh (guessed: the stored areas equal width × height (box 0: 10 × 8 = 80): COCO xywh)."; got.Reason != want {
		t.Errorf("xyxy reason %q, want %q", got.Reason, want)
	}
	if got.Drawn != "1" || got.Invalid != "5" || got.Outside != "0" || len(got.Errors) != 5 || got.Errors[0] != "box 1: negative width -9 (xyxy [18 10 9 6])" {
		t.Errorf("xyxy: %+v", got)
	}
	if row0.XYXY.Drawn != 1 || row0.XYXY.Invalid != 5 {
		t.Errorf("the twin's xyxy: %+v", row0.XYXY)
	}
	b.waitFor(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.get('boxfmt') === 'xyxy'`)
	var link string
	b.eval(`location.search`, &link)

	// A flip mirrors the boxes.
	b.run(chromedp.Click(`[data-action=flip-x]`, chromedp.ByQuery))
	flipped, _ := boxPicture(H, W, true, false)
	mirror := make([]int, 0, len(flipped))
	for y := range H {
		for x := range W {
			mirror = append(mirror, flipped[(y*W+W-1-x)*4:][:4]...)
		}
	}
	b.waitPicture("flipped", W, H, withRings(mirror, W, flipX(row0.XYXY.rings(row0.Category, 1, -1), W)))
	b.run(chromedp.Click(`[data-action=flip-x]`, chromedp.ByQuery))
	b.waitPicture("flipped back", W, H, xyxy)

	// Rows height, columns channel: no boxes, and why.
	b.setValue(`select[data-role=axis-x]`, "2")
	b.waitFor(`document.querySelector('[data-role=box-note]') !== null`)
	got = b.boxTexts()
	if want := "No boxes: the picture shows dimensions 0: height (24) × 2: channel (3), and the boxes follow only the image's height and width (0: height (24) × 1: width (32))."; got.Note != want || got.Count != "" ||
		got.Drawn != "0" || got.Counts != "objects of 6: 1 box on the image, not drawn, 5 invalid." {
		t.Errorf("axes height, channel: %+v", got)
	}
	if w, h, _ := b.slicePixels(); w != 3 || h != H {
		t.Errorf("with axes height, channel the picture is %d×%d, want 3×%d", w, h, H)
	}
	b.screenshot("boxes-off")

	// The link in a fresh page: the same picture and format.
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link))
	fresh.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="1"]') !== null`)
	fresh.waitPicture("the link in a fresh page", W, H, xyxy)
	if got := fresh.boxTexts(); got.Format != "xyxy" || got.Invalid != "5" {
		t.Errorf("the link's boxes: %+v", got)
	}
	fresh.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	fresh.run(chromedp.Click(`[data-role=boxes] button[data-box="0"]`, chromedp.ByQuery))
	for _, scheme := range []string{"light", "dark"} {
		fresh.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range fresh.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		fresh.screenshot("boxes-link-" + scheme)
	}
	fresh.narrow("boxes-360", `[data-role=box-controls]`)

	// Row 1: a class id past the names; row 2: null objects.
	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="1"] [data-role=boxes][data-count="2"]') !== null`)
	b.waitPicture("row 1", W, H, withRings(base, W, hf.Rows[1].XYWH.rings(hf.Rows[1].Category, 1, -1)))
	if got := b.boxTexts(); !reflect.DeepEqual(got.Labels, []string{"#0 Face_Shield", "#1 7"}) || got.Format != "xywh" {
		t.Errorf("row 1: %+v", got)
	}
	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	b.run(chromedp.Click(`[data-row="2"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="2"] [data-role=box-note]') !== null`)
	if got := b.boxTexts(); got.Note != "No boxes: objects is null in this row." || got.Count != "" {
		t.Errorf("row 2: %+v", got)
	}
	b.waitPicture("row 2's picture alone", W, H, base)

	// The Parquet twin, as the Hub serves the set: the same boxes.
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_hf.parquet&f=image&r=0"))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="3"]') !== null`)
	b.waitPicture("boxes from Parquet", W, H, drawn)
	if got := b.boxTexts(); !reflect.DeepEqual(got, want) {
		t.Errorf("Parquet: %+v", got)
	}
}

// TestBoxesYOLO opens boxes_yolo.arrow (apache-arrow: a uint8
// [16, 32, 3] image tensor and list<fixed_size_list<float32, 4>> boxes of
// YOLO's normalised centre and size, no categories): the tensor's preview
// has its boxes' edges; the inspector guesses cxcywhn from numbers that
// cannot be corners, draws three boxes (one clipped) and says why the NaN
// box is not drawn; swapped axes transpose the boxes; a null row says so.
func TestBoxesYOLO(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	y := readBoxesTwin(t).YOLO
	W, H := y.Width, y.Height
	row0 := y.Rows[0].CXCYWHN
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_yolo.arrow"))
	b.waitOpened("boxes_yolo.arrow")
	raw, _ := boxPicture(H, W, false, false)
	if w, h, pix := b.thumbnail(0); w != W || h != H || !reflect.DeepEqual(pix, withRings(raw, W, row0.rings(nil, 1, -1))) {
		t.Errorf("row 0's preview (%d×%d) is not the picture with its boxes", w, h)
	}
	var boxesCell string
	b.eval(`document.querySelector('[data-row="0"] [data-field=boxes]')?.dataset.boxes ?? 'none'`, &boxesCell)
	if boxesCell != "0" {
		t.Errorf("the boxes column's own cell: data-boxes %q, want 0", boxesCell)
	}

	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="3"]') !== null`)
	base, _ := boxPicture(H, W, true, false)
	b.waitPicture("yolo boxes", W, H, withRings(base, W, row0.rings(nil, 1, -1)))
	want := boxTexts{Count: "3", Format: "cxcywhn",
		Reason: "Format cxcywhn, guessed: every number is within 0..1 and box 0's third number 0.25 < first 0.5 cannot be corners: YOLO centre and size.",
		Counts: "boxes of 4: 3 boxes drawn, 1 clipped at the image's edges, 1 invalid.",
		Drawn:  "3", Clipped: "1", Outside: "0", Invalid: "1",
		Errors: []string{"box 2: a coordinate is not finite: [NaN 0.5 0.125 0.125]"},
		Labels: []string{"#0", "#1", "#3"},
		Items:  []string{"0: #0x 12–20, y 4–12", "1: #1x 20–32, y 10–16 (clipped)", "3: #3x 0–4, y 0–4"},
	}
	if got := b.boxTexts(); !reflect.DeepEqual(got, want) {
		t.Errorf("boxes:\n got %+v\nwant %+v", got, want)
	}
	if row0.Drawn != 3 || row0.Clipped != 1 || row0.Invalid != 1 {
		t.Errorf("the twin: %+v", row0)
	}

	b.run(chromedp.Click(`[data-action=swap-axes]`, chromedp.ByQuery))
	swapped, pw := boxPicture(H, W, true, true)
	b.waitPicture("swapped axes", pw, W, withRings(swapped, pw, transpose(row0.rings(nil, 1, -1))))
	b.screenshot("boxes-yolo-swapped")

	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="1"] [data-role=box-note]') !== null`)
	if got := b.boxTexts(); got.Note != "No boxes: boxes is null in this row." {
		t.Errorf("row 1: %+v", got)
	}
}
