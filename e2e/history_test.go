//go:build !wasm

package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The page's history, driven as a person would, quickly: the view state has
// one owner (app/viewstate.Model) and these tests check that what shows,
// the address and Back/Forward agree whatever the delays between steps.
// The delays are the tests' data (the page's own timer writes the address
// 250 ms after in-place changes, its Back lands a few ms after it is
// asked for); the tests wait for the page's signals (data-address on the
// root element: "settled" once the address holds the view), never for time.

// historyDelays are the delays, in ms, between closing something and
// opening the next tensor.
var historyDelays = []int{0, 16, 60, 150, 400, 1000}

// newHistoryBrowser is a page serving tensor4DFile (2 rows of a 2×3×4×5
// float32 tensor "t") at /files/t.arrow, on the page's own origin.
func newHistoryBrowser(t *testing.T) *browser {
	path, _ := tensor4DFile(t)
	return newBrowserServing(t, "", "", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/files/t.arrow" {
				http.ServeFile(w, r, path)
				return
			}
			h.ServeHTTP(w, r)
		})
	})
}

// settledOn is a page expression: the address is settled and the page
// shows the inspector on row row of t (-1: no inspector), and the address
// names it.
func settledOn(row int) string {
	if row < 0 {
		return `document.documentElement.dataset.address === 'settled'
			&& document.querySelector('[data-role=inspector]') === null
			&& !new URL(location.href).searchParams.has('f')`
	}
	return fmt.Sprintf(`document.documentElement.dataset.address === 'settled'
		&& document.querySelectorAll('[data-role=inspector]').length === 1
		&& document.querySelector('[data-role=inspector][data-field="t"][data-row="%d"] canvas[data-role=slice]') !== null
		&& (p => p.get('f') === 't' && p.get('r') === '%d')(new URL(location.href).searchParams)`, row, row)
}

// clickCell clicks row r's tensor as a person does (the mouse at the
// cell's centre: whatever is on top there gets the click).
func clickCell(r int) chromedp.Action {
	return chromedp.Click(fmt.Sprintf(`[data-row="%d"] [data-tensor][data-field="t"]`, r), chromedp.ByQuery)
}

// TestQuickSequences closes the inspector (Escape, its × button, the
// browser's Back) or the schema panel, then clicks another tensor after
// each of historyDelays, with real key presses and mouse clicks: the
// tensor clicked last shows and the address names it; Back closes it
// (only it: the schema panel stays as it was) and Forward reopens it.
func TestQuickSequences(t *testing.T) {
	t.Parallel()
	b := newHistoryBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../files/t.arrow"))
	b.waitOpened("t.arrow")
	b.waitFor(settledOn(-1))

	closers := map[string]chromedp.Action{
		"escape": chromedp.KeyEvent("\x1b"),
		"button": chromedp.Click(`[data-role=inspector] [data-action=close]`, chromedp.ByQuery),
		// The browser's Back has happened when its popstate reaches the
		// page: the delay counts from then.
		"back": chromedp.Evaluate(`new Promise(r => { addEventListener('popstate', () => r(true), {once: true}); history.back(); })`, nil,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	}
	backForward := func() {
		b.eval(`history.back(), true`, nil)
		b.waitFor(settledOn(-1))
		b.eval(`history.forward(), true`, nil)
		b.waitFor(settledOn(1))
		b.eval(`history.back(), true`, nil)
		b.waitFor(settledOn(-1))
	}
	for _, how := range []string{"escape", "button", "back"} {
		for _, d := range historyDelays {
			t.Run(fmt.Sprintf("%s then open after %d ms", how, d), func(t *testing.T) {
				b.run(clickCell(0))
				b.waitFor(settledOn(0))
				// The delay is the test's data: how quickly the person
				// clicks the next tensor.
				b.run(closers[how], chromedp.Sleep(time.Duration(d)*time.Millisecond), clickCell(1))
				b.waitFor(settledOn(1))
				backForward()
			})
		}
	}

	schemaOpen := `document.querySelector('[data-role=schema-panel].open') !== null`
	for _, d := range historyDelays {
		t.Run(fmt.Sprintf("schema closed then open after %d ms", d), func(t *testing.T) {
			b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
			b.waitFor(schemaOpen + ` && new URL(location.href).searchParams.get('schema') === '1' && ` + settledOn(-1))
			b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery), chromedp.Sleep(time.Duration(d)*time.Millisecond), clickCell(1))
			b.waitFor(settledOn(1))
			var s struct {
				Open   bool
				Search string
			}
			b.eval(`({Open: `+schemaOpen+`, Search: location.search})`, &s)
			if s.Open || strings.Contains(s.Search, "schema") {
				t.Errorf("schema panel open %v, address %q: want it closed", s.Open, s.Search)
			}
			backForward()
			b.eval(`({Open: `+schemaOpen+`, Search: location.search})`, &s)
			if s.Open || strings.Contains(s.Search, "schema") {
				t.Errorf("after Back, Forward, Back: schema panel open %v, address %q: want it closed", s.Open, s.Search)
			}
		})
	}
}

// TestLinkViews: every link restores its whole view whether its url= is
// absolute or relative, whatever the order of its parameters or which of
// them it leaves out, and the address keeps the link's parameters.
func TestLinkViews(t *testing.T) {
	t.Parallel()
	b := newHistoryBrowser(t)
	abs := strings.TrimSuffix(b.base, "/tensorview/") + "/files/t.arrow"
	for _, c := range []struct {
		link     string
		row      int
		y, x, ch string // the inspector's axis selects ("": not checked)
	}{
		{"?url=../files/t.arrow&f=t&r=1&y=2&x=3&ch=-1", 1, "2", "3", "-1"},
		{"?url=" + abs + "&f=t&r=1&y=2&x=3&ch=-1", 1, "2", "3", "-1"},
		{"?ch=-1&x=3&r=1&y=2&f=t&url=../files/t.arrow", 1, "2", "3", "-1"},
		{"?url=/files/t.arrow&r=1&f=t", 1, "", "", ""},
		{"?f=t&url=../files/t.arrow", 0, "", "", ""},
		{"?url=../files/t.arrow&f=t&r=1&y=0&x=1", 1, "0", "1", ""},
	} {
		t.Run(c.link, func(t *testing.T) {
			b.run(chromedp.Navigate(b.base + c.link))
			b.waitFor(settledOn(c.row))
			var got struct {
				Y, X, Ch, URL string
			}
			b.eval(`({Y: document.querySelector('select[data-role=axis-y]')?.value || '',
				X: document.querySelector('select[data-role=axis-x]')?.value || '',
				Ch: document.querySelector('select[data-role=channel]')?.value || '',
				URL: new URL(location.href).searchParams.get('url')})`, &got)
			if c.y != "" && (got.Y != c.y || got.X != c.x) {
				t.Errorf("axes y %s x %s, want %s %s", got.Y, got.X, c.y, c.x)
			}
			if c.ch != "" && got.Ch != c.ch {
				t.Errorf("channel %s, want %s", got.Ch, c.ch)
			}
			want := c.link[strings.Index(c.link, "url=")+4:]
			want, _, _ = strings.Cut(want, "&")
			if got.URL != want {
				t.Errorf("the address's url is %q, want the link's %q", got.URL, want)
			}
			// Closing a link's inspector leaves the page on the file
			// (no Back out of it) with the rest of the view.
			b.eval(`document.querySelector('[data-role=inspector] [data-action=close]').click(), true`, nil)
			b.waitFor(settledOn(-1) + ` && document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === 't.arrow'`)
		})
	}
}
