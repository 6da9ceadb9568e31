//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// imagesExpected is testdata/images_expected.json: the PNG gen_images.mjs
// encoded from a formula.
func imagesExpected(t *testing.T) (w, h int, pixels []int) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "images_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var e struct {
		Formula struct {
			Width, Height int
			Pixels        []int
		}
	}
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return e.Formula.Width, e.Formula.Height, e.Formula.Pixels
}

// waitDrawn waits until the thumbnail of row's field is drawn: its first
// pixel is opaque (the browser decodes thumbnails asynchronously).
func (b *browser) waitDrawn(row int, field string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`(c => c && c.getContext('2d').getImageData(0, 0, 1, 1).data[3] === 255)(
		document.querySelector('[data-row="%d"] [data-field=%q] canvas[data-preview]'))`, row, field))
}

// TestImageBytes: cells holding encoded images show thumbnails drawn from
// their bytes (the formula PNG pixel for pixel), the other formats at their
// thumbnail sizes, text for bytes that are no image, the refusal of an
// image bomb; the inspector decodes the image (its statistics are the
// formula's); a Hugging Face Image column shows the same.
func TestImageBytes(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	w, h, want := imagesExpected(t)
	lo, hi := 255, 0
	for _, v := range want {
		lo, hi = min(lo, v), max(hi, v)
	}
	b := newBrowser(t)
	checkFormula := func(row int, field string) {
		t.Helper()
		b.waitDrawn(row, field)
		gw, gh, pix := b.canvas(row, field)
		if gw != w || gh != h {
			t.Fatalf("row %d: thumbnail %dx%d, want %dx%d", row, gw, gh, w, h)
		}
		bad := 0
		for p := 0; p < w*h && bad < 3; p++ {
			got := [4]int(pix[p*4 : p*4+4])
			if exp := [4]int{want[p*3], want[p*3+1], want[p*3+2], 255}; got != exp {
				t.Errorf("row %d pixel (%d, %d) = %v, want %v", row, p/w, p%w, got, exp)
				bad++
			}
		}
	}

	b.upload(filepath.Join("..", "testdata", "images_bytes.arrow"))
	b.waitOpened("images_bytes.arrow")
	checkFormula(0, "image")
	for row, c := range map[int]struct {
		format, kind string
		w, h         int
	}{1: {"WebP", "rgb", 75, 100}, 2: {"JPEG", "gray", 150, 103}, 3: {"GIF", "rgba", 256, 128}, 4: {"PNG", "rgba", 75, 100}} {
		var got struct {
			Format, Kind string
			W, H         int
		}
		sel := fmt.Sprintf(`[data-row="%d"] [data-field=image] canvas[data-preview]`, row)
		b.waitFor(`document.querySelector('` + sel + `') !== null`)
		b.eval(`(c => ({Format: c.dataset.imageFormat, Kind: c.dataset.preview, W: c.width, H: c.height}))(document.querySelector('`+sel+`'))`, &got)
		if got.Format != c.format || got.Kind != c.kind || got.W != c.w || got.H != c.h {
			t.Errorf("row %d: %+v, want %s %s %dx%d", row, got, c.format, c.kind, c.w, c.h)
		}
	}
	b.waitDrawn(2, "image") // the JPEG is grey and opaque
	var texts struct{ NotImage, Bomb string }
	b.eval(`({NotImage: document.querySelector('[data-row="5"] [data-field=image]').textContent,
		Bomb: document.querySelector('[data-row="7"] [data-field=image]').dataset.cellError || ''})`, &texts)
	if texts.NotImage != "bm90IGFuIGltYWdlLCBqdXN0IGJ5dGVz" || !strings.Contains(texts.Bomb, "100000×100000") {
		t.Errorf("row 5 shows %q, row 7's error %q", texts.NotImage, texts.Bomb)
	}
	b.screenshot("images-bytes")
	for _, v := range b.axe() {
		t.Errorf("image cells: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}

	// The inspector decodes the formula PNG.
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field=image]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field=image] [data-role=stats]') !== null`)
	var stats struct{ Min, Max string }
	b.eval(`(s => ({Min: s.dataset.min, Max: s.dataset.max}))(document.querySelector('[data-role=stats]'))`, &stats)
	if stats.Min != fmt.Sprint(lo) || stats.Max != fmt.Sprint(hi) {
		t.Errorf("inspector stats %+v, want %d..%d", stats, lo, hi)
	}
	b.screenshot("images-inspector")
	b.run(chromedp.KeyEvent("\x1b"))
	// Closing goes Back in the history: wait for it, or the next
	// inspector could be closed by that Back's popstate.
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)

	// Scrolling through 300 image rows at once: thumbnails whose rows
	// leave the view before the browser has decoded them are dropped (their
	// components are gone), the page keeps working, and the last rows'
	// thumbnails are drawn.
	many := manyImagesFile(t, 300)
	b.upload(many)
	b.waitOpened(filepath.Base(many))
	for _, frac := range []string{"0.5", "1", "0.25", "1"} {
		b.eval(`(v => (v.scrollTop = v.scrollHeight * `+frac+`, true))(document.querySelector('[data-role=rows]'))`, nil)
	}
	b.waitDrawn(299, "image")
	b.run(chromedp.Click(`[data-row="299"] [data-tensor][data-field=image]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field=image] [data-role=stats]') !== null`)
	b.run(chromedp.KeyEvent("\x1b"))
	// Closing goes Back in the history: wait for it, or the next
	// inspector could be closed by that Back's popstate.
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)

	b.upload(filepath.Join("..", "testdata", "images_hf.arrow"))
	b.waitOpened("images_hf.arrow")
	checkFormula(0, "image")
	var path string
	b.eval(`document.querySelector('[data-row="1"] [data-field=image]').textContent`, &path)
	if !strings.Contains(path, "images/cat.png") {
		t.Errorf("row 1 (a path only) shows %q", path)
	}
}
