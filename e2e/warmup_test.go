//go:build !wasm

package e2e

import (
	"fmt"
	"testing"
)

// warmUpWatch records, from the document's start, what the page's warm-up
// (app/ui/warmup.go) put in the page: the most rows with their data and
// previews its hidden file view held at once, and whether it was ever laid
// out (shown) or exposed to assistive technology.
const warmUpWatch = `window.__warm = {rows: 0, previews: 0, shown: false, exposed: false};
new MutationObserver(() => {
	const w = document.querySelector('.warm-up');
	if (!w) return;
	const s = window.__warm;
	s.rows = Math.max(s.rows, w.querySelectorAll('[data-row]:not([data-loading])').length);
	s.previews = Math.max(s.previews, w.querySelectorAll('canvas[data-preview]').length);
	s.shown = s.shown || getComputedStyle(w).display !== 'none' || w.getClientRects().length > 0;
	s.exposed = s.exposed || w.getAttribute('aria-hidden') !== 'true' || !w.hasAttribute('inert');
}).observe(document, {subtree: true, childList: true, attributes: true});`

// TestWarmUp: once the empty page is painted, it renders the view of a
// small built-in file (rows with their previews) hidden: never laid out,
// aria-hidden and inert; then removes it (data-warm-up="done"), leaving
// the empty page as it was. A file chosen at once is the file shown.
func TestWarmUp(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowserWith(t, "", warmUpWatch)
	b.waitFor(`document.querySelector('[data-warm-up=done]') !== null`)
	var s struct {
		Rows, Previews int
		Shown, Exposed bool
	}
	b.eval(`window.__warm`, &s)
	// The first frame of its rows: 7 rows of 84 px in the default 560 px
	// (nothing is measured in a hidden table), each with two previews.
	if s.Rows < 7 || s.Previews < 14 || s.Shown || s.Exposed {
		t.Errorf("the warm-up held %d rows with data and %d previews at most (want ≥ 7 and ≥ 14), shown %v, exposed %v (want neither)", s.Rows, s.Previews, s.Shown, s.Exposed)
	}
	var left struct {
		WarmUp, Rows int
		State        string
		Zone         bool
	}
	b.eval(`({WarmUp: document.querySelectorAll('.warm-up').length, Rows: document.querySelectorAll('[data-row]').length,
		State: document.querySelector('.viewer').dataset.state,
		Zone: document.querySelector('[data-role=dropzone]')?.getClientRects().length > 0})`, &left)
	if left.WarmUp != 0 || left.Rows != 0 || left.State != "empty" || !left.Zone {
		t.Errorf("after the warm-up: %+v; want no .warm-up, no rows, the empty state with its drop zone shown", left)
	}
	b.screenshot("warm-up-done")

	// A file chosen as soon as the page is ready.
	const rows, h, w = 12, 16, 16
	path := tensorRowsFile(t, "masks.arrow", "mask", rows, []int{h, w}, []string{"H", "W"},
		func(r int) int64 { return int64(100 + r) }, func(r, k int) uint8 { return uint8(r*20 + k%7) })

	b2 := newBrowser(t)
	b2.upload(path)
	b2.waitOpened("masks.arrow")
	var got struct {
		WarmUp   string
		Leftover int
		IDs      []string
	}
	b2.eval(`({WarmUp: document.querySelector('.viewer').dataset.warmUp, Leftover: document.querySelectorAll('.warm-up').length,
		IDs: [...document.querySelectorAll('[data-row] [data-field=id]')].map(e => e.textContent)})`, &got)
	if got.WarmUp != "skipped" && got.WarmUp != "done" || got.Leftover != 0 {
		t.Errorf("with a file open: data-warm-up %q (want skipped or done), %d .warm-up elements (want none)", got.WarmUp, got.Leftover)
	}
	if len(got.IDs) == 0 {
		t.Fatal("no ids shown")
	}
	for i, id := range got.IDs {
		if want := fmt.Sprint(100 + i); id != want {
			t.Fatalf("ids shown %v: want 100, 101, … (masks.arrow's)", got.IDs)
		}
	}
}
