//go:build !wasm

package e2e

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// thumb is the w×h thumbnail the grid draws of the fixtures' picture
// (masks_expected.json: pixel (y, x) = (12x + 20, 16y + 30, 100 + x + y),
// stored as uint8 and drawn as stored) with its mask: thumbnail pixel (x,
// y) shows the picture's and the mask's pixel (y·H/h, x·W/w), integer
// division (nearest neighbour), blended where its class is not 0 as
// floor((1 − 0.5)·img + 0.5·colour + 0.5), the colour VOC's; masked false:
// the picture alone.
func (m masks) thumb(w, h int, masked bool) []int {
	out := make([]int, 0, 4*w*h)
	for y := range h {
		for x := range w {
			sy, sx := y*m.Height/h, x*m.Width/w
			c := m.Mask[sy*m.Width+sx]
			for k := range 3 {
				v := m.Image[(sy*m.Width+sx)*3+k]
				if masked && c != 0 {
					v = int(math.Floor(0.5*float64(v) + 0.5*float64(vocColour(int(c))[k]) + 0.5))
				}
				out = append(out, v)
			}
			out = append(out, 255)
		}
	}
	return out
}

// waitThumb waits until row's image thumbnail is want (w × h RGBA), and
// reports the first pixels that differ when it does not come.
func (b *browser) waitThumb(what string, row, w, h int, want []int) {
	b.t.Helper()
	b.waitPixels(fmt.Sprintf("%s: row %d's thumbnail", what, row), func() (int, int, []int) { return b.canvas(row, "image") }, w, h, want)
}

// maskCell is what an image cell and its header say of the mask over its
// thumbnail.
type maskCell struct {
	MaskOf, Note, Title, Canvas string
}

func (b *browser) maskCell(row int) maskCell {
	b.t.Helper()
	var c maskCell
	b.eval(fmt.Sprintf(`(e => ({MaskOf: e.dataset.maskOf ?? '', Note: e.dataset.maskNote ?? '', Title: e.title,
		Canvas: e.querySelector('canvas[data-preview]')?.dataset.mask ?? ''}))(document.querySelector('[data-row="%d"] [data-tensor][data-field=image]'))`, row), &c)
	return c
}

// maskToggle is the image column's header toggle: its text (its
// aria-label too: they must agree) and aria-pressed.
func (b *browser) maskToggle() (text, pressed string) {
	b.t.Helper()
	var r struct{ Text, Label, Pressed string }
	b.eval(`(e => e ? {Text: e.textContent, Label: e.getAttribute('aria-label'), Pressed: e.getAttribute('aria-pressed')} : {})(
		document.querySelector('[role=columnheader] [data-action=toggle-mask]'))`, &r)
	if r.Label != r.Text {
		b.t.Errorf("the toggle says %q, its label %q", r.Text, r.Label)
	}
	return r.Text, r.Pressed
}

// TestThumbMasks opens masks_tensor.arrow (apache-arrow: a uint8 [12, 16,
// 3] image tensor and its uint8 [12, 16] mask of class ids) by URL: the
// image column's header offers "mask: mask", pressed, and row 0's
// thumbnail has the mask blended in at opacity 0.5, class 0 hidden, every
// pixel as the formula gives it, at the picture's size and sampled down to
// 14×10 (small previews at a device pixel ratio of 0.25); row 1's null
// mask leaves its thumbnail alone and says why. Pressed again, the toggle
// turns the mask off (thumbmask= in the address); a link with it, in a
// fresh page, shows the thumbnails plain and turns the mask on again; a
// link naming the pair shows it. masks_hf.arrow and .parquet (a Hugging
// Face layout: PNG image and a grey PNG annotation of class ids) get the
// annotation over the thumbnails the browser decodes, exactly; an
// annotation of another size and a null one say why. axe finds nothing in
// either theme, with the toggle on and off.
func TestThumbMasks(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	m := readMasks(t)
	W, H := m.Width, m.Height
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_tensor.arrow"))
	b.waitOpened("masks_tensor.arrow")
	b.waitFor(`document.querySelector('[data-row="0"] [data-field=image][data-mask-of=mask] canvas[data-mask=mask]') !== null`)
	if text, pressed := b.maskToggle(); text != "mask: mask" || pressed != "true" {
		t.Errorf("toggle %q pressed %q, want \"mask: mask\" pressed", text, pressed)
	}
	b.waitThumb("row 0 with its mask", 0, W, H, m.thumb(W, H, true))
	// (x 3, y 3): stored (56, 78, 106), class 1, VOC (128, 0, 0).
	if got := m.thumb(W, H, true)[(3*W+3)*4:][:3]; !reflect.DeepEqual(got, []int{92, 39, 53}) {
		t.Errorf("the formula's pixel (3, 3) = %v, want [92 39 53]", got)
	}
	if got, want := b.maskCell(1), (maskCell{Note: "mask is null in this row",
		Title: "Inspect image, row 1 (Ctrl+click: select to compare). No mask over the thumbnail: mask is null in this row."}); got != want {
		t.Errorf("row 1: %+v, want %+v", got, want)
	}
	b.waitThumb("row 1 without its null mask", 1, W, H, m.thumb(W, H, false))
	b.screenshot("thumbmask-tensor")

	// Sampled down: small previews at a device pixel ratio of 0.25 are
	// 14×10 device pixels (54×38 CSS pixels, rounded up).
	b.setValue(`select[data-role=preview-size]`, "small")
	b.waitFor(`document.querySelector('[data-role=rows]').dataset.size === 'small'`)
	b.run(emulation.SetDeviceMetricsOverride(1280, 800, 0.25, false))
	b.waitFor(`(c => c?.width === 14 && c.dataset.mask === 'mask')(document.querySelector('[data-row="0"] [data-field=image] canvas[data-preview]'))`)
	b.waitThumb("row 0 sampled down", 0, 14, 10, m.thumb(14, 10, true))
	b.run(emulation.ClearDeviceMetricsOverride())
	b.setValue(`select[data-role=preview-size]`, "medium")
	b.waitFor(`document.querySelector('[data-role=rows]').dataset.size === 'medium'
		&& document.querySelector('[data-row="0"] [data-field=image] canvas[data-preview]')?.width === 16`)

	// Off: the thumbnails as they are, the address says so.
	b.run(chromedp.Click(`[role=columnheader] [data-action=toggle-mask]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-mask]').getAttribute('aria-pressed') === 'false'
		&& document.querySelector('[data-row="0"] [data-field=image][data-mask-of]') === null
		&& document.querySelector('[data-row="0"] canvas[data-mask]') === null`)
	b.waitThumb("row 0, the mask off", 0, W, H, m.thumb(W, H, false))
	if got := b.maskCell(1); got != (maskCell{Title: "Inspect image, row 1 (Ctrl+click: select to compare)"}) {
		t.Errorf("row 1, the mask off: %+v", got)
	}
	b.waitFor(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.has('thumbmask')`)
	var link struct {
		Search string
		Masks  []string
	}
	b.eval(`({Search: location.search, Masks: new URL(location.href).searchParams.getAll('thumbmask')})`, &link)
	if !reflect.DeepEqual(link.Masks, []string{""}) {
		t.Errorf("the address's thumbmask %q, want one empty value (%s)", link.Masks, link.Search)
	}
	for _, scheme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range b.axe() {
			t.Errorf("the mask off, %s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		b.screenshot("thumbmask-off-" + scheme)
	}

	// The link in a fresh page: off; turned on again, the address drops it.
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link.Search))
	fresh.waitOpened("masks_tensor.arrow")
	fresh.waitFor(`document.querySelector('[data-action=toggle-mask]')?.getAttribute('aria-pressed') === 'false'`)
	fresh.waitThumb("the link's thumbnail", 0, W, H, m.thumb(W, H, false))
	fresh.run(chromedp.Click(`[role=columnheader] [data-action=toggle-mask]`, chromedp.ByQuery))
	fresh.waitFor(`document.querySelector('[data-row="0"] canvas[data-mask=mask]') !== null`)
	fresh.waitThumb("on again", 0, W, H, m.thumb(W, H, true))
	fresh.waitFor(`document.documentElement.dataset.address === 'settled' && !new URL(location.href).searchParams.has('thumbmask')`)
	for _, scheme := range []string{"light", "dark"} {
		fresh.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range fresh.axe() {
			t.Errorf("the mask on, %s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		fresh.screenshot("thumbmask-on-" + scheme)
	}
	// A link naming the pair: on.
	fresh.run(chromedp.Navigate(fresh.base + "?url=../testdata/masks_tensor.arrow&thumbmask=image:mask"))
	fresh.waitOpened("masks_tensor.arrow")
	fresh.waitFor(`document.querySelector('[data-row="0"] canvas[data-mask=mask]') !== null`)
	fresh.waitThumb("a link naming the pair", 0, W, H, m.thumb(W, H, true))

	// Hugging Face's layout: the annotation PNG over the image PNG's
	// thumbnail, which the browser decodes.
	b.upload("../testdata/masks_hf.arrow")
	b.waitOpened("masks_hf.arrow")
	b.waitFor(`document.querySelector('[data-row="0"] [data-field=image][data-mask-of=annotation] canvas[data-mask=annotation]') !== null`)
	if text, pressed := b.maskToggle(); text != "mask: annotation" || pressed != "true" {
		t.Errorf("masks_hf: toggle %q pressed %q, want \"mask: annotation\" pressed", text, pressed)
	}
	b.waitThumb("masks_hf row 0", 0, W, H, m.thumb(W, H, true))
	for row, note := range map[int]string{
		1: "annotation is 6×8 but image is 12×16 (height × width)",
		2: "annotation is null in this row",
	} {
		want := maskCell{Note: note, Title: fmt.Sprintf("Inspect image, row %d (Ctrl+click: select to compare). No mask over the thumbnail: %s.", row, note)}
		if got := b.maskCell(row); got != want {
			t.Errorf("masks_hf row %d: %+v, want %+v", row, got, want)
		}
		b.waitThumb(fmt.Sprintf("masks_hf row %d", row), row, W, H, m.thumb(W, H, false))
	}
	b.screenshot("thumbmask-hf")
	b.run(chromedp.Click(`[role=columnheader] [data-action=toggle-mask]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-mask]').getAttribute('aria-pressed') === 'false'`)
	b.waitThumb("masks_hf row 0, off", 0, W, H, m.thumb(W, H, false))
	b.waitFor(`document.querySelector('[data-row="0"] canvas[data-mask]') === null`)

	// The Parquet twin, as the Hub serves the set, by URL.
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_hf.parquet"))
	b.waitOpened("masks_hf.parquet")
	b.waitFor(`document.querySelector('[data-row="0"] canvas[data-mask=annotation]') !== null`)
	b.waitThumb("masks_hf.parquet row 0", 0, W, H, m.thumb(W, H, true))
	if got := b.maskCell(1).Note; got != "annotation is 6×8 but image is 12×16 (height × width)" {
		t.Errorf("masks_hf.parquet row 1: note %q", got)
	}
}
