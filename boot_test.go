//go:build !wasm

package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// pageBoot is what the page shows of its boot: the viewer's state and
// readiness, the drop zone's status line and whether styles are applied.
type pageBoot struct {
	State, Ready, Status, StatusRole, Boot string
	Loader                                 string // go-app's full-page loader's CSS display
	DropBorder                             string // the drop zone's border style, from web/style.css
	Painted                                bool   // a first contentful paint happened
}

func (b *browser) boot() pageBoot {
	b.t.Helper()
	var p pageBoot
	b.eval(`(() => {
		const v = document.querySelector('.viewer');
		const s = document.querySelector('[data-role=starting]');
		const loader = document.getElementById('app-wasm-loader');
		const zone = document.querySelector('.start [data-role=dropzone]');
		return {
			State: v?.dataset.state || '', Ready: v?.dataset.ready || '',
			Status: s?.textContent || '', StatusRole: s?.getAttribute('role') || '',
			Boot: document.documentElement.dataset.boot || '',
			Loader: loader ? getComputedStyle(loader).display : 'removed',
			DropBorder: zone ? getComputedStyle(zone).borderTopStyle : '',
			Painted: performance.getEntriesByName('first-contentful-paint').length === 1,
		};
	})()`, &p)
	return p
}

// TestBootBeforeWasm holds app.wasm on the server: the page shows the real
// empty page meanwhile (styled, painted, the drop zone saying it is
// starting, no full-page loader, no accessibility violation), a file
// picked then is opened once the wasm arrives, with the values of
// testdata/js_big.arrow that apache-arrow wrote (testdata/js_expected.json).
// A link to a file keeps go-app's loader until the app opens it, and a
// sample clicked before the wasm is ready opens too.
func TestBootBeforeWasm(t *testing.T) {
	skipWithoutSite(t)
	want := loadExpected(t).Files["js_big.arrow"]
	log := &requestLog{hold: "/web/app.wasm", release: make(chan struct{})}
	released := sync.OnceFunc(func() { close(log.release) })
	t.Cleanup(released)
	b := newBrowserLoading(t, "", "", log.wrap)

	b.waitFor(`document.querySelector('[data-state=empty] [data-role=dropzone] [data-role=starting]') !== null
		&& performance.getEntriesByName('first-contentful-paint').length === 1`)
	wantBoot := pageBoot{State: "empty", Ready: "false", Status: "Starting tensorview…", StatusRole: "status",
		Loader: "none", DropBorder: "dashed", Painted: true}
	if got := b.boot(); got != wantBoot {
		t.Errorf("before the wasm: %+v, want %+v", got, wantBoot)
	}
	if len(log.matching("/web/app.wasm")) == 0 {
		t.Fatal("the page has not asked for app.wasm: the test holds nothing")
	}
	// Nothing that can wait is fetched at boot: no sample, no Parquet reader.
	if got := append(log.matching("/web/samples"), log.matching("parquet")...); len(got) != 0 {
		t.Errorf("the page's boot fetched %q", got)
	}
	for _, v := range b.axe() {
		t.Errorf("before the wasm: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.screenshot("boot-before-wasm")
	// Dark, on a phone, still before the wasm (boot.js applies the theme).
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
		chromedp.EmulateViewport(360, 640))
	b.screenshot("boot-before-wasm-dark-360")
	for _, v := range b.axe() {
		t.Errorf("before the wasm, dark, 360 px: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}),
		chromedp.EmulateViewport(1280, 800))

	b.upload("testdata/js_big.arrow")
	b.waitFor(`document.querySelector('[data-role=starting]')?.textContent === 'Opening js_big.arrow as soon as tensorview has started…'`)
	if got := b.boot(); got.State != "loading" || got.Ready != "false" {
		t.Errorf("file picked before the wasm: state %q ready %q, want loading and false", got.State, got.Ready)
	}

	released()
	b.waitOpened("js_big.arrow")
	var ready string
	b.eval(`document.querySelector('.viewer').dataset.ready`, &ready)
	if ready != "true" {
		t.Errorf("data-ready %q once the app opened the file", ready)
	}
	var captions []string
	b.eval(`[0, 1, 2].map(r => document.querySelector('[data-row="' + r + '"] [data-field=caption]')?.textContent)`, &captions)
	if strings.Join(captions, "|") != "sample 0|sample 1|sample 2" {
		t.Errorf("captions of rows 0-2 %q, want sample 0, sample 1, sample 2", captions)
	}
	masks := b.tensorCells("mask")
	if len(masks) < 3 {
		t.Fatalf("%d mask cells in view", len(masks))
	}
	for _, c := range masks[:3] {
		r, err := strconv.Atoi(c.Row)
		if err != nil || r >= len(want.Columns["mask"].Rows) {
			t.Fatalf("mask cell of row %q", c.Row)
		}
		shape := want.Columns["mask"].Rows[r].Shape
		var dims []string
		for _, d := range shape {
			dims = append(dims, strconv.Itoa(d))
		}
		if c.Shape != strings.Join(dims, ",") {
			t.Errorf("mask of row %s has shape %q, want %v (apache-arrow)", c.Row, c.Shape, shape)
		}
	}
	var addr string
	b.eval(`location.search`, &addr)
	if addr != "" {
		t.Errorf("the address after opening a picked file has the query %q", addr)
	}

	t.Run("a link to a file and a sample", func(t *testing.T) {
		log := &requestLog{hold: "/web/app.wasm", release: make(chan struct{})}
		released := sync.OnceFunc(func() { close(log.release) })
		t.Cleanup(released)
		link := "?url=" + url.QueryEscape("web/samples/js_permuted.arrow")
		b := newBrowserLoading(t, link, "", log.wrap)
		b.waitFor(`performance.getEntriesByName('first-contentful-paint').length === 1`)
		if got := b.boot(); got.Boot != "link" || got.Loader != "flex" || got.State != "loading" {
			t.Errorf("a link before the wasm: %+v, want go-app's loader shown (flex) and state loading", got)
		}

		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty] [data-role=starting]') !== null`)
		b.openSample("js_images.arrow")
		b.waitFor(`document.querySelector('[data-role=starting]')?.textContent === 'Opening web/samples/js_images.arrow as soon as tensorview has started…'`)
		var search string
		b.eval(`location.search`, &search)
		if want := "?url=" + url.QueryEscape("web/samples/js_images.arrow"); search != want {
			t.Errorf("address after the sample's click %q, want %q", search, want)
		}
		released()
		b.waitOpened("js_images.arrow")
	})
}

// TestBootNoLayoutShift: nothing on the empty page moves when the wasm
// starts and go-app replaces the server-rendered page with its own render
// (a click made just then lands where the person aimed: under load, a
// sample clicked 9 ms after the switch hit the drop zone, the links having
// moved 17 px down). Checked at 1024 and 360 pixels of width.
func TestBootNoLayoutShift(t *testing.T) {
	skipWithoutSite(t)
	boxes := `JSON.stringify([...document.querySelectorAll('.start, .start .dropzone, .start .drop-hint, .start label.button, .start [data-role=url-form], .start a[data-sample]')]
		.map(e => { const r = e.getBoundingClientRect(); return [e.className || e.tagName, r.left, r.top, r.width, r.height].map(v => typeof v === 'number' ? Math.round(v * 10) / 10 : v); }))`
	for _, w := range []int64{1024, 360} {
		t.Run(fmt.Sprintf("%d px", w), func(t *testing.T) {
			log := &requestLog{hold: "/web/app.wasm", release: make(chan struct{})}
			released := sync.OnceFunc(func() { close(log.release) })
			t.Cleanup(released)
			b := newBrowserBlank(t, "", log.wrap)
			b.run(chromedp.EmulateViewport(w, 800), chromedp.Navigate(b.base))
			b.waitFor(`document.querySelector('[data-state=empty] [data-role=starting]') !== null && document.fonts.status === 'loaded'`)
			var before, after string
			b.eval(boxes, &before)
			released()
			b.waitFor(`document.querySelector('[data-ready=true]') !== null && document.fonts.status === 'loaded'`)
			b.eval(boxes, &after)
			if before != after {
				t.Errorf("the empty page moved when the wasm started:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}
