//go:build !wasm

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
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
	t.Parallel()
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

	b.upload("../testdata/js_big.arrow")
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
	t.Parallel()
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

// bootDelays are the times after a navigation starts at which
// TestBootRaces acts: before the page is parsed, while boot.js has the
// page, around the wasm's start and after it.
var bootDelays = []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond}

// bootAct is something a person does with the page as it boots, and the
// file it must open.
type bootAct struct {
	name, file string
	do         func(b *browser, file string)
}

// countLoads counts the documents a tab loaded in its session storage
// (tv-loads): 2 and more after a reload.
const countLoads = `sessionStorage.setItem('tv-loads', String(Number(sessionStorage.getItem('tv-loads') || 0) + 1));`

// eventLog keeps, for a failure's message, when the page got the drag,
// drop, change and click events (capture and bubble on window, whether
// handled) and when go-app replaced the server-rendered page.
const eventLog = `window.tvEvents = [];
	for (const type of ['dragenter', 'dragover', 'drop', 'change', 'click']) {
		const note = (phase) => (e) => tvEvents.push([Math.round(performance.now()), phase, type, (e.target.nodeName || '') + '.' + (e.target.className || ''), e.defaultPrevented]);
		window.addEventListener(type, note('capture'), true);
		window.addEventListener(type, note('bubble'));
	}
	document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => tvEvents.push([Math.round(performance.now()), 'body changed'])).observe(document.body, {childList: true}));`

// newBuildReported makes go-app's loader report, once per tab, that its
// service worker activated a newer build before the wasm started (as after
// a redeploy: the page came from the old build's cache), by answering
// true, once, for app.js's goappUpdatedBeforeWasmLoaded, and by saying that
// a service worker answered the navigation (Navigation Timing's
// workerStart: the page ignores the report otherwise, as the first worker
// claiming a page loaded from the network).
const newBuildReported = `Object.defineProperty(window, 'goappUpdatedBeforeWasmLoaded', {configurable: false,
	get() { if (sessionStorage.getItem('tv-updated')) return false; sessionStorage.setItem('tv-updated', '1'); return true },
	set() {}});
	(real => { performance.getEntriesByType = type => type === 'navigation' ? [{workerStart: 1}] : real(type); })(performance.getEntriesByType.bind(performance));`

// TestBootRaces acts on a fresh browser's first visit at each of
// bootDelays after the navigation starts, whether the wasm has started
// then or not: a file picked (set on the page's file input), a file picked
// in a file chooser opened then and answered once the app has started (the
// input it was opened from may be gone by then), a file dropped (a real
// drop, DevTools' Input.dispatchDragEvent) and a sample link clicked (a
// real click). Each time the file asked for opens: its name and its exact
// row count show.
func TestBootRaces(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	want := loadExpected(t).Files
	acts := []bootAct{
		{"pick", "js_big.arrow", (*browser).pickNow},
		{"chooser", "js_permuted.arrow", func(b *browser, file string) {
			in := b.fileInputNow()
			b.waitFor(`document.querySelector('.viewer[data-ready=true]') !== null`)
			b.setFiles(in, file)
		}},
		{"drop", "js_variable.arrow", (*browser).dropNow},
		{"sample", "js_images.arrow", (*browser).clickSampleNow},
	}
	for _, a := range acts {
		for _, d := range bootDelays {
			t.Run(fmt.Sprintf("%s %d ms", a.name, d.Milliseconds()), func(t *testing.T) {
				b := newBrowserBlank(t, countLoads+eventLog, nil)
				start := time.Now()
				b.run(chromedp.ActionFunc(func(ctx context.Context) error {
					_, _, _, _, err := page.Navigate(b.base).Do(ctx) // does not wait for the page
					return err
				}))
				time.Sleep(time.Until(start.Add(d))) // the delay is the test's data
				a.do(b, a.file)
				var when struct {
					Ms    float64
					Ready string
				}
				if err := chromedp.Run(b.ctx, chromedp.Evaluate(`({Ms: performance.now(), Ready: document.querySelector('.viewer')?.dataset.ready || ''})`, &when)); err == nil {
					t.Logf("acted by %.0f ms of the page's time, data-ready %q", when.Ms, when.Ready)
				}
				rows := want[a.file].NumRows
				err := b.pollWithin(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q
					&& document.querySelector('[data-role=num-rows][data-exact=true]')?.textContent === '%d'`, a.file, rows), 30*time.Second)
				for _, l := range b.console.since(0) {
					if strings.Contains(l, "has been updated") {
						t.Logf("go-app reported a new build: %s", l)
					}
				}
				if err != nil {
					var st struct{ State, Ready, Status, H2, Search, Loads, Nav string }
					_ = chromedp.Run(b.ctx, chromedp.Evaluate(`(() => ({State: document.querySelector('.viewer')?.dataset.state || '', Ready: document.querySelector('.viewer')?.dataset.ready || '',
						Status: document.querySelector('[data-role=starting]')?.textContent || '', H2: document.querySelector('[data-role=file-info] h2')?.textContent || '',
						Search: location.search, Loads: sessionStorage.getItem('tv-loads') || '', Nav: performance.getEntriesByType('navigation')[0]?.type || ''}))()`, &st))
					var events []any
					_ = chromedp.Run(b.ctx, chromedp.Evaluate(`window.tvEvents || []`, &events))
					t.Logf("events: %v", events)
					var said []string
					for _, l := range b.console.since(0) {
						if strings.Contains(l, "updated") || strings.Contains(l, "worker") || strings.Contains(l, "exception") {
							said = append(said, l)
						}
					}
					b.screenshot(t.Name())
					t.Errorf("%s %v after the navigation started: %s with %d rows not opened (%v); page %+v; console %q", a.name, d, a.file, rows, err, st, said)
				}
			})
		}
	}
}

// fileInputNow returns the page's file input as soon as the page has one.
func (b *browser) fileInputNow() runtime.RemoteObjectID {
	b.t.Helper()
	return b.elementNow(`document.querySelector('input[data-role=file-input]')`)
}

// elementNow evaluates js, an element or null, until it is an element
// (the page has it; it may still be parsing), and returns it.
func (b *browser) elementNow(js string) runtime.RemoteObjectID {
	b.t.Helper()
	for {
		if err := b.pollWithin(js+` !== null`, 30*time.Second); err != nil {
			b.t.Fatal(err)
		}
		var id runtime.RemoteObjectID
		err := chromedp.Run(b.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			r, exc, err := runtime.Evaluate(js).Do(ctx)
			if err != nil {
				return err
			}
			if exc != nil {
				return exc
			}
			id = r.ObjectID
			return nil
		}))
		if err != nil && !contextGone(err) {
			b.t.Fatal(err)
		}
		if id != "" {
			return id
		}
	}
}

// setFiles picks testdata/file in the file input in, as the file chooser
// opened from it does.
func (b *browser) setFiles(in runtime.RemoteObjectID, file string) {
	b.t.Helper()
	if err := b.setFilesErr(in, file); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browser) setFilesErr(in runtime.RemoteObjectID, file string) error {
	abs, _ := filepath.Abs(filepath.Join("..", "testdata", file))
	return chromedp.Run(b.ctx, dom.SetFileInputFiles([]string{abs}).WithObjectID(in))
}

// pickNow picks testdata/file in the page's file input as soon as the page
// has one. When the page's document is gone before the file is set (the
// app reloaded the empty page for a newer build: the chooser closes with
// it), nothing was picked, and it picks again in the new page.
func (b *browser) pickNow(file string) {
	b.t.Helper()
	for {
		err := b.setFilesErr(b.fileInputNow(), file)
		if err == nil {
			return
		}
		if !contextGone(err) && !strings.Contains(err.Error(), "Could not find object with given id") {
			b.t.Fatal(err)
		}
		b.t.Logf("the page navigated before the file was picked (%v): picking in the new page", err)
	}
}

// centerNow returns the centre of the element js names as soon as the
// page has it.
func (b *browser) centerNow(js string) (x, y float64) {
	b.t.Helper()
	for {
		if err := b.pollWithin(js+` !== null`, 30*time.Second); err != nil {
			b.t.Fatal(err)
		}
		var raw []byte
		err := chromedp.Run(b.ctx, chromedp.Evaluate(`(e => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })(`+js+`)`, &raw))
		if err != nil && !contextGone(err) {
			b.t.Fatal(err)
		}
		var p []float64
		if err == nil && json.Unmarshal(raw, &p) == nil && len(p) == 2 {
			return p[0], p[1]
		}
	}
}

// dropNow drags testdata/file over the drop zone and drops it there, as
// soon as the page has a drop zone.
func (b *browser) dropNow(file string) {
	b.t.Helper()
	x, y := b.centerNow(`document.querySelector('.start [data-role=dropzone]')`)
	abs, _ := filepath.Abs(filepath.Join("..", "testdata", file))
	data := &input.DragData{Files: []string{abs}, DragOperationsMask: 1}
	// A drag whose page navigates away meanwhile is never answered.
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	// The browser drops only on a page that has answered a dragover by
	// taking the drag (a drop sent while that answer is pending, the page
	// busy starting the wasm, never reached the page): as a mouse does,
	// the drag moves on over the drop zone until the page shows it takes
	// it (web/boot.js's or the app's .over), then drops.
	over := false
	err := chromedp.Run(ctx, input.DispatchDragEvent(input.DragEnter, x, y, data))
	for err == nil && !over {
		err = chromedp.Run(ctx, input.DispatchDragEvent(input.DragOver, x, y, data),
			chromedp.Evaluate(`document.querySelector('.start .dropzone.over') !== null`, &over))
		if err != nil && contextGone(err) {
			err = nil
		}
	}
	if err == nil {
		err = chromedp.Run(ctx, input.DispatchDragEvent(input.Drop, x, y, data))
	}
	if err != nil {
		b.t.Fatalf("dropping %s: %v", file, err)
	}
}

// clickSampleNow clicks the sample link of file as soon as the page has
// it.
func (b *browser) clickSampleNow(file string) {
	b.t.Helper()
	x, y := b.centerNow(fmt.Sprintf(`document.querySelector('a[data-sample=%q]')`, file))
	b.run(chromedp.MouseClickXY(x, y))
}

// TestBootNewBuild: a file picked or dropped before the wasm started (the
// test holds app.wasm until web/boot.js says it has the file) opens when
// go-app reports that its service worker activated a newer build before
// the wasm started, which makes the app reload a page that is empty and
// not loading: the page is loading the file from the app's first render
// on, so it keeps it and offers the new version instead.
func TestBootNewBuild(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	want := loadExpected(t).Files
	for _, a := range []bootAct{
		{"pick", "js_big.arrow", (*browser).pickNow},
		{"drop", "js_variable.arrow", (*browser).dropNow},
	} {
		t.Run(a.name, func(t *testing.T) {
			log := &requestLog{hold: "/web/app.wasm", release: make(chan struct{})}
			released := sync.OnceFunc(func() { close(log.release) })
			t.Cleanup(released)
			b := newBrowserLoading(t, "", countLoads+newBuildReported, log.wrap)
			a.do(b, a.file)
			b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=starting]')?.textContent === 'Opening %s as soon as tensorview has started…'`, a.file))
			released()
			b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === %q
				&& document.querySelector('[data-role=num-rows][data-exact=true]')?.textContent === '%d'
				&& document.querySelector('.update') !== null`, a.file, want[a.file].NumRows))
			var loads string
			b.eval(`sessionStorage.getItem('tv-loads')`, &loads)
			if loads != "1" {
				t.Errorf("the page loaded %s times, want once", loads)
			}
			said := false
			for _, l := range b.console.since(0) {
				said = said || strings.Contains(l, "has been updated")
			}
			if !said {
				t.Error("go-app did not report the new build: the test tested nothing")
			}
		})
	}
}

// TestBootSplitClick: a sample link pressed on the server-rendered page
// and released once go-app has replaced that page with its own (the wasm
// started between the two: TestBootRaces's "sample 250 ms" lost its click
// so in a fresh-clone make test beside another) opens the sample: the
// browser fires no click for it (the pressed link is out of the
// document), web/boot.js clicks the same sample's link under the release.
func TestBootSplitClick(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	want := loadExpected(t).Files["js_images.arrow"]
	log := &requestLog{hold: "/web/app.wasm", release: make(chan struct{})}
	released := sync.OnceFunc(func() { close(log.release) })
	t.Cleanup(released)
	b := newBrowserLoading(t, "", "", log.wrap)
	b.waitFor(`document.querySelector('[data-state=empty] [data-role=starting]') !== null && document.fonts.status === 'loaded'`)
	x, y := b.centerNow(`document.querySelector('a[data-sample="js_images.arrow"]')`)
	b.run(input.DispatchMouseEvent(input.MousePressed, x, y).WithButton(input.Left).WithClickCount(1))
	released()
	b.waitFor(`document.querySelector('.viewer[data-ready=true]') !== null`)
	b.run(input.DispatchMouseEvent(input.MouseReleased, x, y).WithButton(input.Left).WithClickCount(1))
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === 'js_images.arrow'
		&& document.querySelector('[data-role=num-rows][data-exact=true]')?.textContent === '%d'`, want.NumRows))
}
