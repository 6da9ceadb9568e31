//go:build !wasm

package e2e

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// masksMore is testdata/masks_more_expected.json (gen_masks.mjs): the
// class ids of masks_voc.arrow and masks_wide.arrow, over the pictures of
// masks_expected.json.
type masksMore struct {
	Height, Width int
	VOC           struct{ Mask, Foreground []int }
	Wide          struct {
		Label, Instances []int
		Names            []string
	}
}

// inspectImage opens the inspector on row 0's image and waits for its
// overlay controls.
func (b *browser) inspectImage() {
	b.t.Helper()
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] canvas[data-role=slice]') !== null
		&& document.querySelector('[data-role=inspector] [data-role=legend]') !== null`)
}

// settledParam waits for the address to settle with query parameter name
// present, and returns its value.
func (b *browser) settledParam(name string) string {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.has(%q)`, name))
	var v string
	b.eval(fmt.Sprintf(`new URL(location.href).searchParams.get(%q)`, name), &v)
	return v
}

// axeBoth runs axe in the light and the dark theme, with a screenshot of
// each.
func (b *browser) axeBoth(name string) {
	b.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range b.axe() {
			b.t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		b.screenshot(name + "-" + scheme)
	}
}

// TestMaskVoid opens masks_voc.arrow (a PASCAL VOC paletted PNG mask with
// a void ring of 255 around each object, beside a binary 0/255 grey PNG):
// void is hidden by default and listed as "255 (void)", not pressed; the
// readout names it; pressing it draws it in VOC's (224, 224, 192), the
// link says hide=0 and gives the same picture in a fresh page; axe finds
// nothing in either theme; the binary mask's 255 is a class, drawn.
func TestMaskVoid(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	m := readMasks(t)
	var more masksMore
	readTestdataJSON(t, "masks_more_expected.json", &more)
	W, H := m.Width, m.Height
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_voc.arrow"))
	b.waitOpened("masks_voc.arrow")
	b.inspectImage()

	mask := more.VOC.Mask
	def := maskStyle{alpha: 0.5, hidden: map[int]bool{0: true, 255: true}}
	b.waitPicture("void hidden", W, H, m.shownOf(mask, def))
	if got, want := b.legend(), []legendItem{{"0", "false", "0"}, {"1", "true", "1"}, {"15", "true", "15"}, {"255", "false", "255 (void)"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("legend %+v, want %+v", got, want)
	}
	// Pixel (x 1, y 1) is on the aeroplane's void ring; (x 10, y 7) the person.
	if mask[1*W+1] != 255 || mask[7*W+10] != 15 {
		t.Fatalf("the twin's mask: %d, %d", mask[1*W+1], mask[7*W+10])
	}
	if got, want := b.hoverPicture(1, 1), "[height=1, width=1, channel=:] = [32 46 102], mask = 255 (void)"; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}
	b.screenshot("mask-void")

	b.run(chromedp.Click(`[data-role=legend] [data-class="255"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=legend] [data-class="255"]').getAttribute('aria-pressed') === 'true'`)
	shown := maskStyle{alpha: 0.5, hidden: map[int]bool{0: true}}
	b.waitPicture("void shown", W, H, m.shownOf(mask, shown))
	if p := m.shownOf(mask, shown)[(1*W+1)*4:][:3]; !reflect.DeepEqual(p, []int{120, 130, 152}) {
		// stored (32, 46, 102), drawn (16, 36, 112), halfway to (224, 224,
		// 192): floor(v/2 + c/2 + 0.5).
		t.Errorf("the formula's void pixel (1, 1) = %v, want [120 130 152]", p)
	}
	if hide := b.settledParam("hide"); hide != "0" {
		t.Errorf("hide=%q, want 0 (every class hidden: void shown)", hide)
	}
	var link string
	b.eval(`location.search`, &link)

	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link))
	fresh.waitFor(`document.querySelector('[data-role=inspector] [data-role=legend] [data-class="255"]') !== null`)
	fresh.waitPicture("the link in a fresh page", W, H, m.shownOf(mask, shown))
	if got := fresh.legend(); len(got) != 4 || got[3] != (legendItem{"255", "true", "255 (void)"}) {
		t.Errorf("the link's legend %+v", got)
	}
	fresh.axeBoth("mask-void-link")

	// The binary foreground: 255 is its class.
	b.setValue(`select[data-role=overlay-select]`, "1")
	b.waitFor(`document.querySelectorAll('[data-role=legend] [data-class]').length === 2`)
	if got, want := b.legend(), []legendItem{{"0", "false", "0"}, {"255", "true", "255"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("foreground legend %+v, want %+v", got, want)
	}
	b.waitPicture("foreground", W, H, m.shownOf(more.VOC.Foreground, maskStyle{alpha: 0.5, hidden: map[int]bool{0: true}}))
}

// TestMaskWideIDs opens masks_wide.arrow: class ids past the four names
// (300, 70000) are drawn in their VOC colours, listed by id and said once;
// class 0, hidden by default, is shown from the legend and the link says
// hide= (none hidden) and gives it back; a 16-bit instance-id PNG (0, 7,
// 255, 26000, 26001) is drawn with every id its own colour, 255 a class.
func TestMaskWideIDs(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	m := readMasks(t)
	var more masksMore
	readTestdataJSON(t, "masks_more_expected.json", &more)
	W, H := m.Width, m.Height
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/masks_wide.arrow"))
	b.waitOpened("masks_wide.arrow")
	b.inspectImage()

	label := more.Wide.Label
	def := maskStyle{alpha: 0.5, hidden: map[int]bool{0: true}}
	b.waitPicture("wide ids", W, H, m.shownOf(label, def))
	want := []legendItem{{"0", "false", `0 "background"`}, {"1", "true", `1 "road"`}, {"2", "true", `2 "car"`}, {"300", "true", "300"}, {"70000", "true", "70000"}}
	if got := b.legend(); !reflect.DeepEqual(got, want) {
		t.Errorf("legend %+v, want %+v", got, want)
	}
	var note string
	b.eval(`document.querySelector('[data-role=legend-note]')?.textContent ?? ''`, &note)
	if want := "Classes 300 and 70000 are not among the file's 4 class names: shown by id."; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	// 300 is (64, 0, 224) in VOC's map, 70000 (40, 68, 96); (x 10, y 6)
	// is 300, (x 3, y 11) 70000.
	if vocColour(300) != [3]int{64, 0, 224} || vocColour(70000) != [3]int{40, 68, 96} || label[6*W+10] != 300 || label[11*W+3] != 70000 {
		t.Fatalf("colours %v %v, ids %d %d", vocColour(300), vocColour(70000), label[6*W+10], label[11*W+3])
	}
	if got, want := b.hoverPicture(3, 11), "[height=11, width=3, channel=:] = [56 206 114], label = 70000"; got != want {
		t.Errorf("readout %q, want %q", got, want)
	}
	b.screenshot("mask-wide")

	// Class 0 shown: hide= says none is hidden, and a fresh page agrees.
	b.run(chromedp.Click(`[data-role=legend] [data-class="0"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=legend] [data-class="0"]').getAttribute('aria-pressed') === 'true'`)
	all := maskStyle{alpha: 0.5, hidden: map[int]bool{}}
	b.waitPicture("class 0 shown", W, H, m.shownOf(label, all))
	if hide := b.settledParam("hide"); hide != "" {
		t.Errorf("hide=%q, want empty (none hidden)", hide)
	}
	var link string
	b.eval(`location.search`, &link)
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link))
	fresh.waitFor(`document.querySelector('[data-role=inspector] [data-role=legend] [data-class="0"]')?.getAttribute('aria-pressed') === 'true'`)
	fresh.waitPicture("class 0 shown, from the link", W, H, m.shownOf(label, all))
	fresh.axeBoth("mask-wide-link")

	// The 16-bit instance ids.
	b.setValue(`select[data-role=overlay-select]`, "1")
	b.waitFor(`document.querySelector('[data-role=legend] [data-class="26001"]') !== null`)
	if got, want := b.legend(), []legendItem{{"0", "true", "0"}, {"7", "true", "7"}, {"255", "true", "255"}, {"26000", "true", "26000"}, {"26001", "true", "26001"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("instances legend %+v, want %+v", got, want)
	}
	b.eval(`document.querySelector('[data-role=legend-note]')?.textContent ?? ''`, &note)
	if note != "" {
		t.Errorf("instances: note %q (no names given)", note)
	}
	b.waitPicture("instances", W, H, m.shownOf(more.Wide.Instances, all))
	b.screenshot("mask-instances")
}
