//go:build !wasm

package e2e

import (
	"bytes"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/hubfake"
)

// TestHubRedirect opens a file by a Hugging Face-style address of the
// emulated Hub (internal/hubfake: the listed address redirects to the
// resolve address, which redirects to a signed CDN address on another
// origin): the browser's fetch follows the redirects once and the page
// reads the rest at the CDN address; after that address expires, the next
// read resolves it once more and the rows read then have their values. No
// request is preflighted, has a suffix range or a custom header (hubfake
// fails the test on any).
func TestHubRedirect(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path := batchesFile(t, "hub.arrow", false, 400, 64) // ≈ 75 MiB: more than the page's block cache
	hub := hubfake.Start(t, hubfake.Options{Expiry: time.Hour})
	if err := hub.Add("owner/ds", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default",
		Splits: []hubfake.Split{{Name: "train", Files: []hubfake.File{{Path: path}}}}}}}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(hub.FileURL("owner/ds", "default", "train", 0))))
	b.waitOpened("0.parquet")
	// Indexed to the end: every batch header read, at the CDN address.
	b.waitWithin(`document.querySelector('[data-role=num-rows]').textContent === '25600'`, 2*time.Minute)
	if api, res, cdn := hub.Count(hubfake.APIFile), hub.Count(hubfake.Resolve), hub.Count(hubfake.CDN); api != 1 || res != 1 || cdn < 2 {
		t.Errorf("before the expiry: %d listed-address, %d resolve and %d CDN requests, want 1, 1 and more than 1", api, res, cdn)
	}
	hub.Advance(2 * time.Hour)
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight / 2; return true })()`, nil)
	b.waitFor(`[...document.querySelectorAll('[data-row]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]')].some(c => +c.closest('[data-row]').dataset.row > 12000)`)
	var row int
	b.eval(`+[...document.querySelectorAll('[data-row]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]')].map(c => c.closest('[data-row]')).find(r => +r.dataset.row > 12000).dataset.row`, &row)
	_, _, pix := b.canvas(row, "image")
	if want := []int{row % 251, (row + 1) % 251, (row + 2) % 251}; len(pix) < 3 || !bytes.Equal(intsToBytes(pix[:3]), intsToBytes(want)) {
		t.Errorf("row %d's first pixel %v, want %v", row, pix[:min(len(pix), 3)], want)
	}
	if api, res, exp := hub.Count(hubfake.APIFile), hub.Count(hubfake.Resolve), hub.Count(hubfake.Expired); api != 2 || res != 2 || exp < 1 {
		t.Errorf("after the expiry: %d listed-address, %d resolve requests and %d expired, want 2, 2 and at least 1", api, res, exp)
	}
	b.screenshot("hub-redirect")
}
