//go:build !wasm

package e2e

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// shardsTwin is testdata/shards_expected.json, written by
// testdata/gen_shards.mjs from the values it wrote.
type shardsTwin struct {
	Names []string `json:"names"`
	Image struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	} `json:"image"`
	Sets map[string]struct {
		Files []struct {
			Name    string `json:"name"`
			Format  string `json:"format"`
			Start   int    `json:"start"`
			Rows    int    `json:"rows"`
			Groups  []int  `json:"groups"`
			Size    int64  `json:"size"`
			Variant string `json:"variant"`
		} `json:"files"`
		Skipped []string `json:"skipped"`
	} `json:"sets"`
	Rows []shardRow `json:"rows"`
}

func loadShardsTwin(t *testing.T) shardsTwin {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "shards_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tw shardsTwin
	if err := json.Unmarshal(data, &tw); err != nil {
		t.Fatal(err)
	}
	return tw
}

// shardPaths are the paths of set's shards, in order.
func (tw shardsTwin) shardPaths(set string) []string {
	var out []string
	for _, f := range tw.Sets[set].Files {
		p, _ := filepath.Abs(filepath.Join("..", "testdata", "shards", set, f.Name))
		out = append(out, p)
	}
	return out
}

// uploadAll picks several files at once in the page's <input type=file
// multiple>.
func (b *browser) uploadAll(paths []string) {
	b.t.Helper()
	b.run(chromedp.SetUploadFiles(`input[type=file]`, paths, chromedp.ByQuery))
}

// shardRow is one row of shards_expected.json.
type shardRow struct {
	Row       int    `json:"row"`
	Shard     int    `json:"shard"`
	ID        int64  `json:"id"`
	Label     int    `json:"label"`
	LabelName string `json:"label_name"`
	Caption   string `json:"caption"`
	Heatmap   struct {
		Shape  []int `json:"shape"`
		Values []any `json:"values"`
	} `json:"heatmap"`
	Image struct {
		Path   string `json:"path"`
		Pixels []int  `json:"pixels"`
	} `json:"image"`
}

// datasetCell is what the page shows of one cell of a dataset's row.
type datasetCell struct {
	Found, Tensor, Null bool
	Shape, Err, Text    string
	Summary             []string
	ImageFormat         string
}

// checkDatasetRow goes to row g and checks its cells against the twin:
// id, label and caption as text, the heatmap's shape and values, the
// image's thumbnail pixel for pixel, the row header's shard. variant
// says what the shard holds ("base", "labelText": label is an error
// naming both types, "noCaption": caption is null).
func (b *browser) checkDatasetRow(tw shardsTwin, set string, g int, names ...string) {
	t := b.t
	t.Helper()
	want := tw.Rows[g]
	file := tw.Sets[set].Files[want.Shard]
	shardName := file.Name // names, when given, are the files' as the page names them
	if len(names) > 0 {
		shardName = names[want.Shard]
	}
	b.gotoRow(g)
	sel := fmt.Sprintf(`[data-row="%d"]`, g)
	b.waitFor(`document.querySelector('` + sel + ` [data-field]') !== null && document.querySelector('` + sel + `[data-loading]') === null`)
	var got struct {
		Shard, Title string
		Cells        map[string]datasetCell
	}
	b.eval(`(r => ({Shard: r.querySelector('[role=rowheader]').dataset.shard || '', Title: r.querySelector('[role=rowheader]').title,
		Cells: Object.fromEntries([...r.querySelectorAll('[data-field]')].map(c => [c.dataset.field, {
		Found: true, Tensor: c.hasAttribute('data-tensor'), Null: c.hasAttribute('data-null'), Shape: c.dataset.shape || '',
		Err: c.dataset.cellError || '', Text: c.querySelector('.text')?.textContent ?? '',
		Summary: [...c.querySelectorAll('.summary > div')].map(d => d.textContent),
		ImageFormat: c.querySelector('canvas[data-image-format]')?.dataset.imageFormat || ''}]))}))(document.querySelector('`+sel+`'))`, &got)
	if !strings.HasSuffix(got.Shard, shardName) || got.Title != got.Shard {
		t.Errorf("%s row %d: header's shard %q (title %q), want %s", set, g, got.Shard, got.Title, shardName)
	}
	c := got.Cells
	if c["id"].Text != fmt.Sprint(want.ID) {
		t.Errorf("%s row %d: id %+v, want %d", set, g, c["id"], want.ID)
	}
	switch file.Variant {
	case "labelText":
		if e := c["label"].Err; !strings.Contains(e, "utf8") || !strings.Contains(e, "int64") || !strings.Contains(e, file.Name) {
			t.Errorf("%s row %d: label %+v, want the error naming utf8 in %s and int64", set, g, c["label"], file.Name)
		}
	default:
		if c["label"].Text != fmt.Sprint(want.Label) || c["label"].Err != "" {
			t.Errorf("%s row %d: label %+v, want %d (%s)", set, g, c["label"], want.Label, want.LabelName)
		}
	}
	switch file.Variant {
	case "noCaption":
		if !c["caption"].Null || c["caption"].Err != "" {
			t.Errorf("%s row %d: caption %+v, want null", set, g, c["caption"])
		}
	default:
		if c["caption"].Text != want.Caption {
			t.Errorf("%s row %d: caption %+v, want %q", set, g, c["caption"], want.Caption)
		}
	}
	h := c["heatmap"]
	if text := nestedText(want.Heatmap.Shape, want.Heatmap.Values, 32); !h.Tensor || h.Shape != "4,4" || !slices.Contains(h.Summary, text) {
		t.Errorf("%s row %d: heatmap %+v, want [4,4] listing %s", set, g, h, text)
	}
	im := c["image"]
	if !im.Tensor || im.ImageFormat != "PNG" || im.Shape != fmt.Sprintf("%d,%d,3", tw.Image.Height, tw.Image.Width) {
		t.Errorf("%s row %d: image %+v, want a %dx%d PNG", set, g, im, tw.Image.Width, tw.Image.Height)
	}
	b.waitDrawn(g, "image")
	w, hh, pix := b.canvas(g, "image")
	if w != tw.Image.Width || hh != tw.Image.Height {
		t.Errorf("%s row %d: thumbnail %dx%d", set, g, w, hh)
		return
	}
	for p := range w * hh {
		px := [4]int(pix[p*4 : p*4+4])
		if exp := [4]int{want.Image.Pixels[p*3], want.Image.Pixels[p*3+1], want.Image.Pixels[p*3+2], 255}; px != exp {
			t.Errorf("%s row %d: image pixel (%d, %d) = %v, want %v", set, g, p/w, p%w, px, exp)
			break
		}
	}
}

// gotoRow types row g into the grid's "go to row" field.
func (b *browser) gotoRow(g int) {
	b.t.Helper()
	b.run(chromedp.SetValue(`[data-role=goto-row]`, fmt.Sprint(g), chromedp.ByQuery),
		chromedp.SendKeys(`[data-role=goto-row]`, kb.Enter, chromedp.ByQuery))
}

// checkDatasetRows checks every row of the set, shard after shard.
func (b *browser) checkDatasetRows(tw shardsTwin, set string, names ...string) {
	b.t.Helper()
	for g := range tw.Rows {
		b.checkDatasetRow(tw, set, g, names...)
	}
}

// waitAllOpen waits until every file of the dataset is open and its rows
// counted: the row count exact, the files' list all exact.
func (b *browser) waitAllOpen(rows int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`(n => n?.dataset.exact === 'true' && n.textContent === '%d')(document.querySelector('[data-role=num-rows]'))
		&& document.querySelector('[data-role=progress][data-task=index]') === null`, rows))
}

// shardListRow is a row of the schema panel's list of files.
type shardListRow struct {
	Shard, Rows, Exact, Cells string
}

// checkShardList checks the schema panel's list of files: one row per
// shard, in order, named prefix + its name, with its format, size, first
// row and rows (exact).
func (b *browser) checkShardList(tw shardsTwin, set, prefix string) {
	t := b.t
	t.Helper()
	b.waitFor(`document.querySelector('[data-role=shards] tr[data-shard]') !== null`)
	var got []shardListRow
	b.eval(`[...document.querySelectorAll('[data-role=shards] tr[data-shard]')].map(r => ({Shard: r.dataset.shard, Rows: r.dataset.rows,
		Exact: r.dataset.exact, Cells: [...r.children].map(c => c.textContent).join('|')}))`, &got)
	var want []shardListRow
	for _, f := range tw.Sets[set].Files {
		want = append(want, shardListRow{Shard: prefix + f.Name, Rows: fmt.Sprint(f.Rows), Exact: "true",
			Cells: fmt.Sprintf("%s|%s|%s|%d|%d", prefix+f.Name, f.Format, humanBytes(f.Size), f.Start, f.Rows)})
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: the list of files\n got %+v\nwant %+v", set, got, want)
	}
}

// humanBytes writes n as the page does (decode.HumanBytes): bytes below
// 1 KiB, else KiB, MiB, GiB with one decimal.
func humanBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f, units := float64(n)/1024, []string{"KiB", "MiB", "GiB", "TiB"}
	u := 0
	for f >= 1024 && u < len(units)-1 {
		f, u = f/1024, u+1
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

// TestDatasetPicked picks the 3 Parquet shards of a Hugging Face-like
// dataset at once: one table of their rows in order, every row of every
// shard as the writer wrote it (text, labels, captions, tensor values,
// image pixels, the row header's file), the row count exact once every
// file is open, the "Files" fact, the schema panel's list of files; sort
// by label and a filter of captions across the shards give the rows the
// twin says; the inspector on a row of the last shard shows its tensor,
// and its link, opened in a fresh page with the same files picked, opens
// the inspector on that row again.
func TestDatasetPicked(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	b := newBrowser(t)
	files := tw.Sets["parquet"].Files
	b.holdReads(files[1].Name, files[2].Name)
	b.uploadAll(tw.shardPaths("parquet"))
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === '3 files'
		&& document.querySelector('[data-row="%d"] [data-field=id]') !== null`, files[0].Rows-1))
	// The first file only is open: its rows show, the next file's first
	// row waits for it to open (loading), the rows after it are not
	// placed yet (indexing), the count is an estimate, the progress says
	// how many files are open.
	b.waitFor(`document.querySelector('[data-role=progress][data-task=index]')?.textContent.includes("Opening the dataset's files: 1 of 3 files open")`)
	var early struct {
		Exact, Count string
		Rows         map[int]string // the rows drawn: an id, or why not
	}
	b.eval(`({Exact: document.querySelector('[data-role=num-rows]').dataset.exact, Count: document.querySelector('[data-role=num-rows]').textContent,
		Rows: Object.fromEntries([...document.querySelectorAll('[data-row]')].map(r => [r.dataset.row,
			r.querySelector('[data-field=id]')?.textContent ?? r.querySelector('.cell.loading')?.textContent ?? '?']))})`, &early)
	if early.Exact != "false" || !strings.HasPrefix(early.Count, "≈") || len(early.Rows) < 7 {
		t.Errorf("with the first file open only: %+v, want an estimated count and 7 rows or more drawn", early)
	}
	// The second file's estimate (from its size) is 5 rows: those wait for
	// it to open in its place; the rows after it are not placed yet.
	est := int(float64(files[1].Size)*float64(files[0].Rows)/float64(files[0].Size) + 0.5)
	for r, got := range early.Rows {
		want := "indexing…"
		switch {
		case r < files[0].Rows:
			want = fmt.Sprint(tw.Rows[r].ID)
		case r < files[0].Rows+est:
			want = "loading…"
		}
		if got != want {
			t.Errorf("with the first file open only, row %d shows %q, want %q", r, got, want)
		}
	}
	b.screenshot("dataset-first-file")
	b.release()
	b.waitAllOpen(len(tw.Rows))
	b.screenshot("dataset-open")
	var facts struct{ Format, Shards, ShardsText, Title, Rows string }
	b.eval(`(q => ({Format: q('[data-role=format]').textContent, Shards: q('[data-role=num-shards]').dataset.shards,
		ShardsText: q('[data-role=num-shards]').textContent, Title: q('[data-role=num-shards]').title, Rows: q('[data-role=num-rows]').textContent}))(
		s => document.querySelector('[data-role=file-info] ' + s))`, &facts)
	if want := (struct{ Format, Shards, ShardsText, Title, Rows string }{"Parquet", "3", "3", "3 of 3 files open", "15"}); facts != want {
		t.Errorf("file facts %+v, want %+v", facts, want)
	}
	b.checkDatasetRows(tw, "parquet")

	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.checkShardList(tw, "parquet", "")
	for _, theme := range []string{"light", "dark"} {
		b.setTheme(theme)
		b.screenshot("dataset-shard-list-" + theme)
		for _, v := range b.axe() {
			t.Errorf("%s theme, the list of files open: axe %s (%s): %s at %v", theme, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	b.setTheme("light")
	b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery))

	// Sort by label: stable, across the shards.
	byLabel := slices.Clone(tw.Rows)
	slices.SortStableFunc(byLabel, func(a, c shardRow) int { return cmp.Compare(a.Label, c.Label) })
	labelHead := `[role=columnheader][data-col="2"]`
	b.run(chromedp.Click(labelHead+` [data-action=sort]`, chromedp.ByQuery))
	b.waitQuery(`document.querySelector('` + labelHead + `').getAttribute('aria-sort') === 'ascending'`)
	b.checkDatasetOrder("sort by label", byLabel)

	// A filter of captions, with the sort kept.
	var red []shardRow
	for _, r := range byLabel {
		if strings.Contains(r.Caption, "red") {
			red = append(red, r)
		}
	}
	b.query("caption contains 'RED'")
	b.waitQuery(fmt.Sprintf(`document.querySelector('[data-role=num-rows]').dataset.matches === '%d'`, len(red)))
	b.checkDatasetOrder("filter caption contains red", red)
	b.run(chromedp.Click(`[data-role=query-result] [data-action=clear-query]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=query-result]') === null && !document.querySelector('[data-role=num-rows]').dataset.query`)

	// Statistics of the label column: of every row of every file.
	counts := map[int]int{}
	for _, r := range tw.Rows {
		counts[r.Label]++
	}
	st := b.openStats(2)
	if f := st.Figures; f["count"] != fmt.Sprint(len(tw.Rows)) || f["nulls"] != "0" || f["min"] != "0" || f["max"] != "2" || f["distinct"] != "3" {
		t.Errorf("label's statistics %+v, want %d rows, no null, 0 to 2, 3 distinct", f, len(tw.Rows))
	}
	var bars []int64
	for _, n := range st.Bars {
		if n > 0 {
			bars = append(bars, n)
		}
	}
	if want := []int64{int64(counts[0]), int64(counts[1]), int64(counts[2])}; !slices.Equal(bars, want) {
		t.Errorf("label's histogram's bars %v, want %v", st.Bars, want)
	}
	b.closeStats(2)

	// The inspector on a row of the last shard.
	last := tw.Sets["parquet"].Files[2]
	g := last.Start + 1
	b.inspectHeatmap(tw, g)
	b.waitFor(`document.documentElement.dataset.address === 'settled'`)
	addr := b.address()
	if addr.Get("f") != "heatmap" || addr.Get("r") != fmt.Sprint(g) || addr.Has("url") {
		t.Errorf("the address %v, want f=heatmap, r=%d and no url", addr, g)
	}
	var in string
	b.eval(`document.querySelector('[data-role=inspector-shard]')?.textContent ?? ''`, &in)
	if want := "in " + tw.Sets["parquet"].Files[tw.Rows[g].Shard].Name; in != want {
		t.Errorf("the inspector says %q of its file, want %q", in, want)
	}
	b.screenshot("dataset-inspector")

	// The link in a fresh page, with a first row in view and a
	// comparison with a row of the first file added: the same files
	// picked open the inspector on the same row, comparing it with row 2
	// (every element differs by g - 2), over the rows from row 12.
	addr.Set("row", "12")
	addr.Set("vs", "heatmap@2")
	fresh := newBrowserWith(t, "?"+addr.Encode(), "")
	fresh.uploadAll(tw.shardPaths("parquet"))
	fresh.waitFor(`document.querySelector('[data-role=diff-stats][data-max-abs]') !== null`)
	var diff struct{ Row, MaxAbs, MeanAbs, Differing, Count string }
	fresh.eval(`(d => ({Row: document.querySelector('[data-role=inspector]').dataset.row, MaxAbs: d.dataset.maxAbs, MeanAbs: d.dataset.meanAbs,
		Differing: d.dataset.differing, Count: d.dataset.count}))(document.querySelector('[data-role=diff-stats]'))`, &diff)
	d := fmt.Sprint(g - 2)
	if want := (struct{ Row, MaxAbs, MeanAbs, Differing, Count string }{fmt.Sprint(g), d, d, "16", "16"}); diff != want {
		t.Errorf("the link's comparison %+v, want %+v", diff, want)
	}
	fresh.screenshot("dataset-link-compare")
	fresh.run(chromedp.KeyEvent(kb.Escape))
	fresh.waitFor(`document.querySelector('[data-role=inspector]') === null && document.querySelector('[data-row="12"] [data-field=id]')?.textContent === '` + fmt.Sprint(tw.Rows[12].ID) + `'`)
	// Row 12 is in view (the last rows cannot scroll to the top: it is
	// as high as they go).
	var view struct{ Top, Bottom, ViewTop, ViewBottom float64 }
	fresh.eval(`(r => ({Top: r.top, Bottom: r.bottom, ViewTop: document.querySelector('[data-role=rows] .rows-header').getBoundingClientRect().bottom,
		ViewBottom: document.querySelector('[data-role=rows]').getBoundingClientRect().bottom}))(document.querySelector('[data-row="12"]').getBoundingClientRect())`, &view)
	if view.Top < view.ViewTop-1 || view.Bottom > view.ViewBottom+1 {
		t.Errorf("the link's row 12 is at %.0f..%.0f px, out of the grid's view %.0f..%.0f", view.Top, view.Bottom, view.ViewTop, view.ViewBottom)
	}
}

// holdReads makes the page's reads of the files named (Blob.arrayBuffer
// of the File or of its slices) wait until release: their shards cannot
// open meanwhile.
func (b *browser) holdReads(names ...string) {
	b.t.Helper()
	list, _ := json.Marshal(names)
	b.eval(`(() => {
		const held = new Set(`+string(list)+`);
		let release;
		const released = new Promise(r => { release = r; });
		window.__releaseReads = () => { held.clear(); release(); return true; };
		const slice = Blob.prototype.slice, read = Blob.prototype.arrayBuffer;
		Blob.prototype.slice = function (...args) { const part = slice.apply(this, args); part.__from = this.name ?? this.__from; return part; };
		Blob.prototype.arrayBuffer = function () { return held.has(this.name ?? this.__from) ? released.then(() => read.call(this)) : read.call(this); };
		return true;
	})()`, nil)
}

// release lets the reads holdReads held go.
func (b *browser) release() {
	b.t.Helper()
	b.eval(`window.__releaseReads()`, nil)
}

// inspectHeatmap opens the inspector on row g's heatmap and checks its
// statistics.
func (b *browser) inspectHeatmap(tw shardsTwin, g int) {
	b.t.Helper()
	b.gotoRow(g)
	cell := fmt.Sprintf(`[data-row="%d"] [data-tensor][data-field=heatmap]`, g)
	b.waitFor(`document.querySelector('` + cell + `') !== null`)
	b.run(chromedp.Click(cell, chromedp.ByQuery))
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector][data-field=heatmap][data-row="%d"] [data-role=stats]') !== null`, g))
	b.checkHeatmapStats(tw, g)
}

// checkHeatmapStats checks the inspector's statistics of row g's heatmap:
// its minimum and maximum, from the twin.
func (b *browser) checkHeatmapStats(tw shardsTwin, g int) {
	b.t.Helper()
	vals := tw.Rows[g].Heatmap.Values
	var got struct{ Min, Max string }
	b.eval(`(s => ({Min: s.dataset.min, Max: s.dataset.max}))(document.querySelector('[data-role=inspector] [data-role=stats]'))`, &got)
	if want := (struct{ Min, Max string }{fmt.Sprint(vals[0]), fmt.Sprint(vals[len(vals)-1])}); got != want {
		b.t.Errorf("row %d's heatmap in the inspector: %+v, want %+v", g, got, want)
	}
}

// checkDatasetOrder checks the grid's positions show want's rows, each
// with its global row number and id.
func (b *browser) checkDatasetOrder(when string, want []shardRow) {
	b.t.Helper()
	got := b.gridRows(len(want))
	for p, w := range want {
		if g := got[p]; g.Row != int64(w.Row) || g.Head != fmt.Sprint(w.Row) || g.ID != fmt.Sprint(w.ID) {
			b.t.Errorf("%s: position %d shows row %d (header %q, id %s); want row %d, id %d", when, p, g.Row, g.Head, g.ID, w.Row, w.ID)
		}
	}
}

// setTheme emulates the system's light or dark theme.
func (b *browser) setTheme(theme string) {
	b.t.Helper()
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}))
}

// datasetFacts are the top bar's facts of a dataset.
type datasetFacts struct{ Name, Format, Shards, Rows string }

func (b *browser) datasetFacts() datasetFacts {
	b.t.Helper()
	var f datasetFacts
	b.eval(`(q => ({Name: q('h2').textContent, Format: q('[data-role=format]').textContent, Shards: q('[data-role=num-shards]').dataset.shards,
		Rows: q('[data-role=num-rows]').textContent}))(s => document.querySelector('[data-role=file-info] ' + s))`, &f)
	return f
}

// TestDatasetMixed picks a dataset whose shards are a Parquet file, an
// Arrow IPC file and an Arrow IPC stream: one table, every row as
// written, each file's format in the list of files, all three in the
// top bar.
func TestDatasetMixed(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	files := tw.Sets["mixed"].Files
	b := newBrowser(t)
	b.holdReads(files[1].Name, files[2].Name)
	b.uploadAll(tw.shardPaths("mixed"))
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-state=ready] [data-role=file-info] h2')?.textContent === '3 files'
		&& document.querySelector('[data-row="%d"] [data-field=id]') !== null`, files[0].Rows-1))
	// A sort asked for before the other files open waits for them, then
	// sorts every row: by label, descending (stable).
	labelHead := `[role=columnheader][data-col="2"]`
	b.run(chromedp.Click(labelHead+` [data-action=sort]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=query-bar] [data-role=progress][data-task=sort]') !== null`)
	b.release()
	b.waitQuery(`document.querySelector('` + labelHead + `').getAttribute('aria-sort') === 'ascending'`)
	b.run(chromedp.Click(labelHead+` [data-action=sort]`, chromedp.ByQuery))
	b.waitQuery(`document.querySelector('` + labelHead + `').getAttribute('aria-sort') === 'descending'`)
	byLabel := slices.Clone(tw.Rows)
	slices.SortStableFunc(byLabel, func(a, c shardRow) int { return cmp.Compare(c.Label, a.Label) })
	b.checkDatasetOrder("sort by label, descending", byLabel)
	b.run(chromedp.Click(`[data-role=query-result] [data-action=clear-query]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=query-result]') === null && !document.querySelector('[data-role=num-rows]').dataset.query`)
	b.waitAllOpen(len(tw.Rows))
	want := datasetFacts{Name: "3 files", Format: "Parquet, Arrow IPC file, Arrow IPC stream", Shards: "3", Rows: fmt.Sprint(len(tw.Rows))}
	if got := b.datasetFacts(); got != want {
		t.Errorf("facts %+v, want %+v", got, want)
	}
	b.checkDatasetRows(tw, "mixed")
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.checkShardList(tw, "mixed", "")
	b.screenshot("dataset-mixed")
}

// TestDatasetMismatch picks a dataset whose second shard's label is a
// string where the first shard's is an int64, and whose third shard has
// no caption: the second shard's label cells show an error naming both
// types and files, the others' labels their values; the third shard's
// captions are null; the warnings say so.
func TestDatasetMismatch(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	files := tw.Sets["mismatch"].Files
	b := newBrowser(t)
	b.uploadAll(tw.shardPaths("mismatch"))
	b.waitOpened("3 files")
	b.waitAllOpen(len(tw.Rows))
	b.checkDatasetRows(tw, "mismatch")
	var warnings []string
	b.eval(`[...document.querySelectorAll('[data-role=file-warnings] .warning')].map(w => w.textContent)`, &warnings)
	want := fmt.Sprintf(`column "label" is utf8 in %s, int64 in %s: its cells there show this error`, files[1].Name, files[0].Name)
	if !slices.Contains(warnings, want) {
		t.Errorf("warnings %q, want %q among them", warnings, want)
	}
	b.checkDatasetRow(tw, "mismatch", files[1].Start)
	b.screenshot("dataset-mismatch")

	// A filter of labels: the rows of the other files that match; the
	// second file's rows cannot be evaluated, and the result says so.
	var zero []shardRow
	for _, r := range tw.Rows {
		if r.Label == 0 && r.Shard != 1 {
			zero = append(zero, r)
		}
	}
	b.query("label = 0")
	b.waitQuery(fmt.Sprintf(`document.querySelector('[data-role=num-rows]').dataset.matches === '%d'`, len(zero)))
	b.checkDatasetOrder("filter label = 0", zero)
	var note string
	b.eval(`document.querySelector('[data-role=query-note]')?.textContent ?? ''`, &note)
	if !strings.Contains(note, files[1].Name) || !strings.Contains(note, "utf8") {
		t.Errorf("the filter's note says %q, want the second file's rows not evaluated (label is utf8 there)", note)
	}
	b.screenshot("dataset-mismatch-filter")
}

// dropFolder drops a folder named dir holding the files of testdata/path
// named names, as a browser does: a drop event whose dataTransfer's item
// gives a FileSystemDirectoryEntry (webkitGetAsEntry). Chromium cannot
// make real entries from a script, so these are fakes with the same
// interface: isFile, isDirectory, name, fullPath, file(ok, fail), and a
// directory reader whose readEntries answers in pages of two entries, then
// an empty page (the end), asynchronously; the entries come in reverse
// order of names, as a file system may list them. The Files hold the
// fixtures' bytes.
func (b *browser) dropFolder(dir, path string, names []string) {
	b.t.Helper()
	list, _ := json.Marshal(names)
	var ok bool
	b.eval(fmt.Sprintf(`(async (dir, base, names) => {
		const files = await Promise.all(names.map(async n => new File([await (await fetch(base + n)).blob()], n)));
		const later = f => setTimeout(f, 0);
		const fileEntry = (f, at) => ({isFile: true, isDirectory: false, name: f.name, fullPath: at + '/' + f.name,
			file: (ok, fail) => later(() => ok(f))});
		const dirEntry = (name, at, children) => ({isFile: false, isDirectory: true, name, fullPath: at,
			createReader: () => { let next = 0; return {readEntries: (ok, fail) => later(() => { ok(children.slice(next, next + 2)); next += 2; })}; }});
		const root = dirEntry(dir, '/' + dir, files.reverse().map(f => fileEntry(f, '/' + dir)));
		const item = {kind: 'file', type: '', webkitGetAsEntry: () => root, getAsFile: () => null};
		const dt = {items: [item], files: [], types: ['Files'], dropEffect: 'copy', effectAllowed: 'all'};
		const zone = document.querySelector('[data-role=dropzone]');
		const over = new DragEvent('dragover', {bubbles: true, cancelable: true});
		Object.defineProperty(over, 'dataTransfer', {value: dt});
		zone.dispatchEvent(over);
		const drop = new DragEvent('drop', {bubbles: true, cancelable: true});
		Object.defineProperty(drop, 'dataTransfer', {value: dt});
		return zone.dispatchEvent(drop) === false;
	})(%q, %q, %s)`, dir, b.data+path+"/", list), &ok)
	if !ok {
		b.t.Fatal("the drop zone did not take the folder's drop (preventDefault not called)")
	}
}

// dropFiles drops the files of testdata/path named names at once (a
// DataTransfer of Files, as several files dragged from a file manager).
func (b *browser) dropFiles(path string, names []string) {
	b.t.Helper()
	list, _ := json.Marshal(names)
	var ok bool
	b.eval(fmt.Sprintf(`(async (base, names) => {
		const dt = new DataTransfer();
		for (const n of names) dt.items.add(new File([await (await fetch(base + n)).blob()], n));
		const zone = document.querySelector('[data-role=dropzone]');
		zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})) === false;
	})(%q, %s)`, b.data+path+"/", list), &ok)
	if !ok {
		b.t.Fatal("the drop zone did not take the drop (preventDefault not called)")
	}
}

// TestDatasetFolder drops the folder of the Parquet shards, which also
// holds notes.txt: the shards open as one dataset named after the folder,
// in order of their names whatever order the folder lists them in, every
// row as written (the files named by their paths in the folder), notes.txt
// listed as skipped in the warnings.
func TestDatasetFolder(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	set := tw.Sets["parquet"]
	var names []string
	for _, f := range set.Files {
		names = append(names, f.Name)
	}
	names = append(names, set.Skipped...)
	b := newBrowser(t)
	b.dropFolder("parquet", "shards/parquet", names)
	b.waitOpened("parquet")
	b.waitAllOpen(len(tw.Rows))
	want := datasetFacts{Name: "parquet", Format: "Parquet", Shards: "3", Rows: fmt.Sprint(len(tw.Rows))}
	if got := b.datasetFacts(); got != want {
		t.Errorf("facts %+v, want %+v", got, want)
	}
	var warnings []string
	b.eval(`[...document.querySelectorAll('[data-role=file-warnings] .warning')].map(w => w.textContent)`, &warnings)
	if skipped := "1 file skipped (not Arrow or Parquet by its name, or unreadable): parquet/notes.txt"; !slices.Contains(warnings, skipped) {
		t.Errorf("warnings %q, want %q", warnings, skipped)
	}
	b.checkDatasetRows(tw, "parquet")
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.checkShardList(tw, "parquet", "parquet/")
	b.screenshot("dataset-folder")

	// Several files dropped (not a folder): the same dataset, named after
	// the files it opens; notes.txt skipped.
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	b.dropFiles("shards/parquet", names)
	b.waitOpened("3 files")
	b.waitAllOpen(len(tw.Rows))
	warnings = nil
	b.eval(`[...document.querySelectorAll('[data-role=file-warnings] .warning')].map(w => w.textContent)`, &warnings)
	if skipped := "1 file skipped (not Arrow or Parquet by its name, or unreadable): notes.txt"; !slices.Contains(warnings, skipped) {
		t.Errorf("files dropped: warnings %q, want %q", warnings, skipped)
	}
	b.checkDatasetRow(tw, "parquet", len(tw.Rows)-1)

	// A folder of no Arrow or Parquet file, and an empty folder: each
	// its own message.
	for _, c := range []struct {
		dir, path string
		names     []string
		want      string
	}{
		{"notes", "shards/parquet", set.Skipped, "Cannot open notes. no Arrow or Parquet file among them (notes/notes.txt): tensorview opens .arrow, .arrows, .feather, .ipc and .parquet files"},
		{"empty", "shards/parquet", []string{}, "Cannot open the dropped folder. it holds no files"},
	} {
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.dropFolder(c.dir, c.path, c.names)
		b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
		var text string
		b.eval(`document.querySelector('[role=alert]').textContent`, &text)
		if text != c.want {
			t.Errorf("a dropped folder %q: the page says %q, want %q", c.dir, text, c.want)
		}
	}
	b.screenshot("dataset-folder-empty")
}

// TestDatasetBrokenFile picks a dataset whose second file is no Arrow or
// Parquet file (text with a .arrow name): the other files' rows follow
// one another, the warnings and the list of files say why that one
// cannot be opened.
func TestDatasetBrokenFile(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	files := tw.Sets["parquet"].Files
	paths := tw.shardPaths("parquet")
	broken := filepath.Join(t.TempDir(), files[1].Name[:len(files[1].Name)-len(".parquet")]+".arrow")
	if err := os.WriteFile(broken, []byte("this is not an Arrow file, only text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.uploadAll([]string{paths[0], broken, paths[2]})
	b.waitOpened("3 files")
	rows := files[0].Rows + files[2].Rows
	b.waitAllOpen(rows)
	for g := range rows {
		want := tw.Rows[g]
		if g >= files[0].Rows {
			want = tw.Rows[g+files[1].Rows]
		}
		b.gotoRow(g)
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-field=id]')?.textContent === '%d'`, g, want.ID))
	}
	var warnings []string
	b.eval(`[...document.querySelectorAll('[data-role=file-warnings] .warning')].map(w => w.textContent)`, &warnings)
	name := filepath.Base(broken)
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.HasPrefix(w, "cannot open "+name+": ") }) {
		t.Errorf("warnings %q, want one saying %s cannot be opened", warnings, name)
	}
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	var row struct{ Err, Rows, Text string }
	b.waitFor(`document.querySelector('[data-role=shards] tr[data-error]') !== null`)
	b.eval(`(r => ({Err: r.dataset.error, Rows: r.dataset.rows, Text: r.querySelector('td').textContent}))(document.querySelector('[data-role=shards] tr[data-error]'))`, &row)
	if row.Err != "true" || row.Rows != "0" || !strings.HasPrefix(row.Text, "not an Arrow IPC file or stream") {
		t.Errorf("the list's row of the broken file %+v", row)
	}
	b.screenshot("dataset-broken-file")
	for _, v := range b.axe() {
		t.Errorf("the list of files with an error: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
}

// TestDatasetManyFiles picks 240 files, copies of the mixed set's Arrow
// IPC file and stream in turn (7 and 3 rows): every file opens, the count
// is theirs, rows deep in the dataset and a sort over all of it are the
// copies' rows.
func TestDatasetManyFiles(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	src := tw.shardPaths("mixed")[1:]
	files := tw.Sets["mixed"].Files[1:]
	dir := t.TempDir()
	const n = 240
	var paths []string
	type copied struct{ shard, start int }
	var at []copied // each copy's twin shard and its first global row
	total := 0
	for i := range n {
		data, err := os.ReadFile(src[i%2])
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("part-%05d.arrow", i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		at = append(at, copied{1 + i%2, total})
		total += files[i%2].Rows
	}
	b := newBrowser(t)
	b.uploadAll(paths)
	b.waitOpened(fmt.Sprintf("%d files", n))
	b.waitWithin(fmt.Sprintf(`(n => n?.dataset.exact === 'true' && n.textContent === '%d')(document.querySelector('[data-role=num-rows]'))
		&& document.querySelector('[data-role=progress][data-task=index]') === null`, total), 2*time.Minute)
	for _, i := range []int{0, 1, 117, 238, 239} {
		c := at[i]
		for _, k := range []int{0, files[c.shard-1].Rows - 1} {
			g := c.start + k
			want := tw.Rows[tw.Sets["mixed"].Files[c.shard].Start+k]
			b.gotoRow(g)
			b.waitFor(fmt.Sprintf(`(r => r?.querySelector('[data-field=id]')?.textContent === '%d' && r.querySelector('[role=rowheader]').dataset.shard === 'part-%05d.arrow')(
				document.querySelector('[data-row="%d"]'))`, want.ID, i, g))
		}
	}
	// Sort by id, descending: the highest ids first, the copies of a row in
	// file order.
	type row struct {
		g  int
		id int64
	}
	var all []row
	for i, c := range at {
		f := tw.Sets["mixed"].Files[c.shard]
		for k := range f.Rows {
			all = append(all, row{c.start + k, tw.Rows[f.Start+k].ID})
		}
		_ = i
	}
	slices.SortStableFunc(all, func(a, c row) int { return cmp.Compare(c.id, a.id) })
	idHead := `[role=columnheader][data-col="0"]`
	b.run(chromedp.Click(idHead+` [data-action=sort]`, chromedp.ByQuery))
	b.waitQuery(`document.querySelector('` + idHead + `').getAttribute('aria-sort') === 'ascending'`)
	b.run(chromedp.Click(idHead+` [data-action=sort]`, chromedp.ByQuery))
	b.waitQuery(`document.querySelector('` + idHead + `').getAttribute('aria-sort') === 'descending'`)
	got := b.gridRows(8)
	for p := range 8 {
		if got[p].Row != int64(all[p].g) || got[p].ID != fmt.Sprint(all[p].id) {
			t.Errorf("sorted by id, descending: position %d shows row %d (id %s), want row %d (id %d)", p, got[p].Row, got[p].ID, all[p].g, all[p].id)
		}
	}
	b.screenshot("dataset-many-files")
}

// TestDatasetManyParquet picks 12 Parquet files, copies of the 3 shards in
// turn: 3 Parquet readers run once idle (more while files open), so
// reading the rows of every file, then the first files' again, stops idle
// readers and starts them again; every row read is the copy's.
func TestDatasetManyParquet(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	tw := loadShardsTwin(t)
	src := tw.shardPaths("parquet")
	files := tw.Sets["parquet"].Files
	dir := t.TempDir()
	const n = 12
	var paths []string
	starts := make([]int, n)
	total := 0
	for i := range n {
		data, err := os.ReadFile(src[i%3])
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("train-%05d-of-%05d.parquet", i, n))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		starts[i] = total
		total += files[i%3].Rows
	}
	// The page's workers counted: made, and the most running at once.
	// A cache of 32 KiB keeps a few row groups: reading a file again reads
	// it again, through its reader.
	b := newBrowserWith(t, "?cache="+fmt.Sprint(32.0/1024), `(() => {
		const W = window.Worker;
		let live = 0;
		window.__workers = {made: 0, maxLive: 0, live: 0};
		window.Worker = class extends W {
			constructor(...args) { super(...args); window.__workers.made++; live++; window.__workers.live = live; window.__workers.maxLive = Math.max(window.__workers.maxLive, live); }
			terminate() { live--; window.__workers.live = live; return super.terminate(); }
		};
	})()`)
	b.uploadAll(paths)
	b.waitOpened(fmt.Sprintf("%d files", n))
	b.waitWithin(fmt.Sprintf(`(n => n?.dataset.exact === 'true' && n.textContent === '%d')(document.querySelector('[data-role=num-rows]'))
		&& document.querySelector('[data-role=progress][data-task=index]') === null`, total), 2*time.Minute)
	for _, i := range []int{0, 3, 6, 9, 11, 1, 4, 7, 10, 2, 0, 5, 8, 11, 0} {
		f := files[i%3]
		g := starts[i] + f.Rows - 1 // its last row: its last row group
		want := tw.Rows[f.Start+f.Rows-1]
		b.gotoRow(g)
		b.waitFor(fmt.Sprintf(`(r => r?.querySelector('[data-field=id]')?.textContent === '%d' && r.querySelector('[data-field=caption] .text')?.textContent === %q)(
			document.querySelector('[data-row="%d"]'))`, want.ID, want.Caption, g))
	}
	b.screenshot("dataset-many-parquet")
	// The idle readers are stopped as each read ends (off the page's
	// reads' path): at most 3 stay.
	if err := b.pollWithin(`window.__workers.live <= 3`, 10*time.Second); err != nil {
		t.Log("readers still running past 3:", err)
	}
	var workers struct{ Made, MaxLive, Live int }
	b.eval(`window.__workers`, &workers)
	t.Logf("Parquet readers: %d started, at most %d at once, %d running at the end", workers.Made, workers.MaxLive, workers.Live)
	if workers.Made <= n {
		t.Errorf("%d Parquet readers started for %d files read again: none was stopped and started again", workers.Made, n)
	}
	if workers.Live > 3 {
		t.Errorf("%d Parquet readers run once the reads are done, want 3 at most", workers.Live)
	}
}
