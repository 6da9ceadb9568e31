package e2e

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tensorview/tensorview/internal/hubfake"
)

// TestDatasetHF opens a Hugging Face dataset by ?hf= from an emulated Hub
// (internal/hubfake: the API's listing, the resolve redirects to a CDN of
// expiring signed addresses, no preflight or custom header allowed): the
// split's 3 Parquet shards as one table, every row of every shard equal
// to the writer's values (shards_expected.json), the config and split
// picked said, each shard resolved once however many reads, the listing
// asked for once, while the wasm loads (web/boot.js), the file list with
// the sizes the tree listing gives; a gated dataset, a missing one and a
// rate limit each say what to do.
func TestDatasetHF(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	hub := hubfake.Start(t, hubfake.Options{Expiry: time.Hour})
	var files []hubfake.File
	for _, p := range tw.shardPaths("parquet") {
		files = append(files, hubfake.File{Path: p})
	}
	split := []hubfake.Split{{Name: "train", Files: files}}
	hub.Add("tv/shards", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default", Splits: split}}})
	hub.Add("tv/gated", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default", Splits: split}}, Access: hubfake.Gated})
	api := url.QueryEscape(hub.APIURL())

	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?hf=tv/shards&hub=" + api))
	b.waitOpened("tv/shards · default/train")
	b.waitAllOpen(len(tw.Rows))
	names := []string{"default/train/0.parquet", "default/train/1.parquet", "default/train/2.parquet"} // as the listing names them
	b.checkDatasetRows(tw, "parquet", names...)
	if n := hub.Count(hubfake.Resolve); n != 3 {
		t.Errorf("%d resolves for 3 shards read many times, want one each", n)
	}
	// The listing was asked for once, by web/boot.js before go-app's loader
	// asked for the wasm, and handed to the app (which would otherwise ask
	// again).
	if n := hub.Count(hubfake.Listing); n != 1 {
		t.Errorf("%d requests for the listing, want 1 (web/boot.js's, taken by the app)", n)
	}
	var started struct{ Listing, Wasm float64 }
	b.eval(`(() => {
		const all = performance.getEntriesByType('resource');
		const at = (f) => { const e = all.find(f); return e ? e.startTime : -1; };
		return { listing: at((e) => new URL(e.name).pathname === '/api/datasets/tv/shards/parquet'),
			wasm: at((e) => /\/app\.wasm(\.br)?$/.test(new URL(e.name).pathname)) };
	})()`, &started)
	if started.Listing < 0 || started.Wasm < 0 || started.Listing >= started.Wasm {
		t.Errorf("the listing's request started at %.0f ms, the wasm's at %.0f ms: want the listing first (-1: not seen)", started.Listing, started.Wasm)
	}
	var warnings string
	b.eval(`document.querySelector('[data-role=file-warnings]')?.textContent ?? ''`, &warnings)
	if !strings.Contains(warnings, "default") || !strings.Contains(warnings, "train") {
		t.Errorf("warnings %q: want the config and split picked said", warnings)
	}
	var sizes []string
	b.eval(`[...document.querySelectorAll('[data-role=shards] tr[data-shard] td:nth-child(3)')].map(e => e.textContent)`, &sizes)
	for i, f := range tw.Sets["parquet"].Files {
		if i >= len(sizes) || sizes[i] != humanBytes(f.Size) {
			t.Errorf("shard %d's size %v, want %s", i, sizes, humanBytes(f.Size))
			break
		}
	}
	var search string
	b.eval(`location.search`, &search)
	if q, _ := url.ParseQuery(strings.TrimPrefix(search, "?")); q.Get("hf") != "tv/shards" || q.Get("hub") != hub.APIURL() {
		t.Errorf("address %q: want hf and hub kept", search)
	}
	b.screenshot("dataset-hf")

	// The signed addresses expire: the next reads resolve each file again
	// once (a fresh page on the link reads them all again).
	hub.Advance(2 * time.Hour)
	fresh := newBrowser(t)
	fresh.run(chromedp.Navigate(fresh.base + search))
	fresh.waitOpened("tv/shards · default/train")
	fresh.waitAllOpen(len(tw.Rows))
	fresh.checkDatasetRow(tw, "parquet", len(tw.Rows)-1, names...)

	for _, tc := range []struct{ query, want string }{
		{"?hf=tv/gated&hub=" + api, "gated"},
		{"?hf=tv/missing&hub=" + api, "tv/missing"},
		{"?hf=not%20a%20name", "not a name"},
	} {
		b.run(chromedp.Navigate(b.base + tc.query))
		if text := b.waitAlert(); !strings.Contains(text, tc.want) {
			t.Errorf("%s: the alert says %q, want it to name %q", tc.query, text, tc.want)
		}
	}
	if v := hub.Violations(); len(v) > 0 {
		t.Errorf("requests a browser would refuse: %v", v)
	}

	// The start page's form: a dataset's page address names the Hub too.
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=hf-input]') !== null`)
	b.screenshot("start-hf-form")
	b.run(chromedp.SendKeys(`[data-role=hf-input]`, hub.APIURL()+"/datasets/tv/shards", chromedp.ByQuery),
		chromedp.Click(`[data-action=open-hf-go]`, chromedp.ByQuery))
	b.waitOpened("tv/shards · default/train")
	b.eval(`location.search`, &search)
	if q, _ := url.ParseQuery(strings.TrimPrefix(search, "?")); q.Get("hf") != "tv/shards" || q.Get("hub") != hub.APIURL() {
		t.Errorf("the form went to %q", search)
	}

	// A Hub that has had too many requests says to wait.
	busy := hubfake.Start(t, hubfake.Options{RateLimit: 1})
	busy.Add("tv/shards", hubfake.Dataset{Configs: []hubfake.Config{{Name: "default", Splits: split}}})
	if resp, err := http.Get(busy.APIURL() + "/api/datasets/tv/shards/parquet"); err == nil {
		resp.Body.Close() // the one request of the window
	}
	b.run(chromedp.Navigate(b.base + "?hf=tv/shards&hub=" + url.QueryEscape(busy.APIURL())))
	if text := b.waitAlert(); !strings.Contains(text, "HTTP 429") || !strings.Contains(text, "wait") {
		t.Errorf("rate limited: the alert says %q", text)
	}
}
