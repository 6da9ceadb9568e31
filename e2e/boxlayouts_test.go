//go:build !wasm

package e2e

import (
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"
)

// layoutsTwin is testdata/boxes_layouts_expected.json (gen_boxes.mjs).
type layoutsTwin struct {
	List struct {
		Width, Height int
		Rows          []struct {
			Category []*int64
			XYWH     boxesPlaced
		}
	}
	One struct {
		Width, Height int
		BBox          []*struct{ XYXY, XYWH boxesPlaced }
		Subject       []*struct {
			Text string
			XYWH boxesPlaced
		}
		Detections []struct {
			Category []int64
			XYXYN    boxesPlaced
		}
	}
}

// categories are a row's categories, a null object's 0 (it is not drawn).
func categories(cs []*int64) []int64 {
	out := make([]int64, len(cs))
	for i, c := range cs {
		if c != nil {
			out[i] = *c
		}
	}
	return out
}

// TestBoxesList opens boxes_list.arrow (cppe-5's objects as datasets 4
// writes a List of a dict: list<struct<bbox, category>>, no areas): the
// thumbnail and the inspector draw the boxes at the twin's pixels, the
// guess says why (a width below its x), the null object is counted and
// said, the labels name the ClassLabel's classes; a row without objects
// says it drew none.
func TestBoxesList(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	var e layoutsTwin
	readTestdataJSON(t, "boxes_layouts_expected.json", &e)
	W, H := e.List.Width, e.List.Height
	row0 := e.List.Rows[0]
	cats := categories(row0.Category)
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_list.arrow"))
	b.waitOpened("boxes_list.arrow")
	raw, _ := boxPicture(H, W, false, false)
	if w, h, pix := b.thumbnail(0); w != W || h != H || !reflect.DeepEqual(pix, withRings(raw, W, row0.XYWH.rings(cats, 1, -1))) {
		t.Errorf("row 0's thumbnail (%d×%d) is not the picture with its boxes", w, h)
	}

	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="3"]') !== null`)
	base, _ := boxPicture(H, W, true, false)
	b.waitPicture("list of structs", W, H, withRings(base, W, row0.XYWH.rings(cats, 1, -1)))
	want := boxTexts{Count: "3", Format: "xywh",
		Reason: "Format xywh, guessed: box 1's third number 8 < first 20 cannot be corners: COCO xywh.",
		Counts: "objects of 4: 3 boxes drawn, 1 clipped at the image's edges, 1 invalid.",
		Drawn:  "3", Clipped: "1", Outside: "0", Invalid: "1",
		Errors: []string{"box 2: null"},
		Labels: []string{"#0 Coverall", "#1 Mask", "#3 Gloves"},
		Items:  []string{"0: #0 Coverallx 4–14, y 3–11", "1: #1 Maskx 20–28, y 4–16", "3: #3 Glovesx 26–32, y 18–24 (clipped)"},
	}
	if got := b.boxTexts(); !reflect.DeepEqual(got, want) {
		t.Errorf("boxes:\n got %+v\nwant %+v", got, want)
	}
	if row0.XYWH.Drawn != 3 || row0.XYWH.Invalid != 1 || row0.XYWH.Clipped != 1 {
		t.Errorf("the twin: %+v", row0.XYWH)
	}
	b.screenshot("boxes-list")

	b.run(chromedp.Click(`[data-action=close]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null && !new URL(location.href).searchParams.has('f')`)
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="1"] [data-role=boxes][data-count="0"]') !== null`)
	if got := b.boxTexts(); got.Counts != "objects of 0: 0 boxes drawn." || got.Note != "" || len(got.Errors) != 0 {
		t.Errorf("row 1: %+v", got)
	}
	b.waitPicture("row 1's picture alone", W, H, base)
}

// TestBoxesOne opens boxes_one.arrow (one box a row beside a uint8 image
// tensor): "bbox" is drawn in the xyxy its field metadata states, the
// reason says the format is from the file's metadata, the thumbnail agrees;
// the user's xywh places it again, says what the file's would be, and the
// link keeps it in a fresh page; "subject" (Visual Genome's struct) is xywh
// from its field names, labelled with its names; "detections" normalised
// corners from Croissant's REL_XYXY, labelled from a dictionary, coloured by
// its indices; axe finds nothing in either theme; a null box says so.
func TestBoxesOne(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	var e layoutsTwin
	readTestdataJSON(t, "boxes_layouts_expected.json", &e)
	one := e.One
	W, H := one.Width, one.Height
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_one.arrow"))
	b.waitOpened("boxes_one.arrow")
	raw, _ := boxPicture(H, W, false, false)
	if w, h, pix := b.thumbnail(0); w != W || h != H || !reflect.DeepEqual(pix, withRings(raw, W, one.BBox[0].XYXY.rings(nil, 1, -1))) {
		t.Errorf("row 0's preview (%d×%d) is not the picture with its box in xyxy", w, h)
	}

	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="image"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="1"]') !== null`)
	base, _ := boxPicture(H, W, true, false)
	xyxy := withRings(base, W, one.BBox[0].XYXY.rings(nil, 1, -1))
	b.waitPicture("bbox as its metadata says", W, H, xyxy)
	var options []string
	b.eval(`[...document.querySelectorAll('select[data-role=box-select] option')].map(o => o.textContent)`, &options)
	if want := []string{"none", "bbox", "subject", "detections"}; !reflect.DeepEqual(options, want) {
		t.Errorf("columns of boxes %q, want %q", options, want)
	}
	var guess string
	b.eval(`document.querySelector('[data-role=box-format-reason]').dataset.guess`, &guess)
	got := b.boxTexts()
	if want := `Format xyxy, from the file's metadata: field bbox has bbox_format = "pascal_voc".`; got.Reason != want || got.Format != "xyxy" || guess != "xyxy" ||
		!reflect.DeepEqual(got.Items, []string{"0: #0x 4–14, y 3–11"}) {
		t.Errorf("bbox: %+v (data-guess %q)", got, guess)
	}

	// The user's format.
	b.setValue(`select[data-role=box-format]`, "xywh")
	b.waitPicture("bbox as xywh", W, H, withRings(base, W, one.BBox[0].XYWH.rings(nil, 1, -1)))
	got = b.boxTexts()
	if want := `Format xywh, as chosen; the file's would be xyxy (from the file's metadata: field bbox has bbox_format = "pascal_voc").`; got.Reason != want ||
		!reflect.DeepEqual(got.Items, []string{"0: #0x 4–18, y 3–14"}) {
		t.Errorf("xywh: %+v", got)
	}
	if f := b.settledParam("boxfmt"); f != "xywh" {
		t.Errorf("boxfmt=%q", f)
	}
	var link string
	b.eval(`location.search`, &link)
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + link))
	fresh.waitFor(`document.querySelector('[data-role=inspector] [data-role=boxes][data-count="1"]') !== null`)
	fresh.waitPicture("the link in a fresh page", W, H, withRings(base, W, one.BBox[0].XYWH.rings(nil, 1, -1)))
	if got := fresh.boxTexts(); got.Format != "xywh" {
		t.Errorf("the link's format %q", got.Format)
	}

	// Visual Genome's subject: xywh from its field names.
	b.setValue(`select[data-role=box-select]`, "1")
	b.waitFor(`document.querySelector('[data-role=box-format-reason]')?.textContent.includes('field names')`)
	b.waitPicture("subject", W, H, withRings(base, W, one.Subject[0].XYWH.rings(nil, 1, -1)))
	got = b.boxTexts()
	if want := "Format xywh, from the box's field names x, y, w, h."; got.Reason != want || !reflect.DeepEqual(got.Labels, []string{"#0 " + one.Subject[0].Text}) ||
		got.Counts != "subject of 1: 1 box drawn." {
		t.Errorf("subject: %+v", got)
	}
	if boxes := b.settledParam("boxes"); boxes != "subject" {
		t.Errorf("boxes=%q", boxes)
	}

	// Detections: normalised corners, dictionary labels.
	b.setValue(`select[data-role=box-select]`, "2")
	b.waitFor(`document.querySelector('[data-role=boxes][data-count="2"]') !== null`)
	det := one.Detections[0]
	b.waitPicture("detections", W, H, withRings(base, W, det.XYXYN.rings(det.Category, 1, -1)))
	got = b.boxTexts()
	if want := `Format xyxyn, from the file's metadata: field detections has bbox_format = "REL_XYXY".`; got.Reason != want ||
		!reflect.DeepEqual(got.Labels, []string{"#0 person", "#1 dog"}) || !reflect.DeepEqual(got.Items, []string{"0: #0 personx 16–24, y 3–12", "1: #1 dogx 2–12, y 12–24"}) {
		t.Errorf("detections: %+v", got)
	}
	b.screenshot("boxes-one-detections")
	b.axeBoth("boxes-one")

	// Row 1's bbox is null.
	b.run(chromedp.Navigate(b.base + "?url=../testdata/boxes_one.arrow&f=image&r=1"))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="1"] [data-role=box-note]') !== null`)
	if got := b.boxTexts(); got.Note != "No boxes: bbox is null in this row." || got.Count != "" {
		t.Errorf("row 1: %+v", got)
	}
	b.waitPicture("row 1's picture alone", W, H, base)
}
