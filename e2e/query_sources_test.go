//go:build !wasm

package e2e

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/chromedp/chromedp"
)

// Sort and filter on every source the page reads: the
// same rows as an Arrow IPC file dropped and by URL (HTTP Range: the bytes
// a sort transfers counted), an IPC stream, Parquet written by arrow-rs
// (parquet-wasm, testdata/ipc_to_parquet.mjs) dropped and by URL, a
// dialect tensor column, and a nested record batch; then every column type
// a sort and a filter take, and a record batch that cannot be read. The
// expected rows are computed here from the values written.

// sourceRows and sourceBatch: 120,000 rows in 4 record batches (row groups
// in Parquet), about 7 MB as IPC: the score column is not read by opening.
const sourceRows, sourceBatch = 120_000, 30_000

// sourcesData is queryBatches' rows with a Ray Data tensor column x
// (ray.data.arrow_tensor, List<float32> with the JSON metadata "[2, 2]":
// a dialect tensor), and the mean of each row's x.
func sourcesData(t *testing.T) (*arrow.Schema, []arrow.RecordBatch, []queryRow, []float64) {
	t.Helper()
	schema, recs, rows := queryBatches(t, sourceRows, sourceBatch)
	md := arrow.NewMetadata([]string{"ARROW:extension:name", "ARROW:extension:metadata"}, []string{"ray.data.arrow_tensor", "[2, 2]"})
	out := arrow.NewSchema(append(schema.Fields(), arrow.Field{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Float32), Nullable: true, Metadata: md}), nil)
	means := make([]float64, len(rows))
	var outRecs []arrow.RecordBatch
	start := 0
	for _, rec := range recs {
		lb := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Float32)
		vb := lb.ValueBuilder().(*array.Float32Builder)
		for r := start; r < start+int(rec.NumRows()); r++ {
			lb.Append(true)
			var sum float64
			for k := range 4 {
				v := float32((r*53+k*29)%1009) / 8
				vb.Append(v)
				sum += float64(v)
			}
			means[r] = sum / 4
		}
		cols := append(slices.Clone(rec.Columns()), lb.NewArray())
		outRecs = append(outRecs, array.NewRecordBatch(out, cols, rec.NumRows()))
		start += int(rec.NumRows())
		rec.Release()
	}
	t.Cleanup(func() {
		for _, r := range outRecs {
			r.Release()
		}
	})
	return out, outRecs, rows, means
}

// toParquet rewrites the IPC file in as Parquet with arrow-rs's writer
// (testdata/ipc_to_parquet.mjs: apache-arrow reads it, parquet-wasm writes
// it), in row groups of rowGroup rows.
func toParquet(t *testing.T, in, name string, rowGroup int) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node: %v (the Parquet writer is parquet-wasm, run by Node.js)", err)
	}
	out := filepath.Join(t.TempDir(), name)
	cmd := exec.Command(node, "ipc_to_parquet.mjs", in, out, fmt.Sprint(rowGroup))
	cmd.Dir = filepath.Join("..", "testdata")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ipc_to_parquet.mjs: %v\n%s", err, msg)
	}
	return out
}

// follow follows a link of the page's own ("?url=…&sort=…") as a click on
// it would: go-app takes the click and navigates within the page.
func (b *browser) follow(query string) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`(() => { const a = document.createElement('a'); a.href = %q; a.textContent = 'link';
		document.body.append(a); a.click(); a.remove(); return true })()`, query), nil)
}

// sortHead clicks column col's sort button until its header says want
// (ascending or descending), the query done; the column must not be
// sorted by before.
func (b *browser) sortHead(col int, want string) {
	b.t.Helper()
	head := fmt.Sprintf(`[role=columnheader][data-col="%d"]`, col)
	for _, step := range []string{"ascending", "descending"} {
		b.run(chromedp.Click(head+` [data-action=sort]`, chromedp.ByQuery))
		b.waitQuery(fmt.Sprintf(`document.querySelector('%s').getAttribute('aria-sort') === '%s'`, head, step))
		if step == want {
			return
		}
	}
}

// waitMatches waits for the end of the filter of the level shown with n
// matches.
func (b *browser) waitMatches(n int) {
	b.t.Helper()
	b.waitQuery(fmt.Sprintf(shownCount+`.dataset.matches === '%d'`, n))
}

// byMean is rows in the order of their means, ascending, stable.
func byMean(rows []queryRow, means []float64) []queryRow {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, c queryRow) int { return cmp.Compare(means[a.row], means[c.row]) })
	return out
}

// TestQuerySources sorts by -score and filters label = 'cat' and score >
// 0.9 on the same rows from every source, the first rows' ids against an
// independent sort and data-matches against the count written; sorts by
// mean(x) of a Ray tensor column (a dialect) in IPC and Parquet; counts
// the bytes a sort by score transfers from an IPC file by URL.
func TestQuerySources(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	schema, recs, rows, means := sourcesData(t)
	arrowPath := writeIPCFile(t, "sources.arrow", schema, recs...)
	streamPath := writeIPCStream(t, "sources.arrows", schema, recs...)
	parquetPath := toParquet(t, arrowPath, "sources.parquet", sourceBatch)
	// By URL under other names: the page shows a file's name, and a test
	// waits for the file it opened.
	host := newFileHost(t, map[string]string{"sources-url.arrow": arrowPath, "sources-url.parquet": parquetPath})
	desc, cats := byScoreDesc(rows), catsOver09(rows)
	const filter = "label = 'cat' and score > 0.9"
	const scoreCol, xCol = 1, 4
	b := newBrowser(t)
	b.run(chromedp.EmulateViewport(1280, 900))

	// sortAndFilter sorts by -score from the header, then filters with
	// the query bar (the sort kept).
	sortAndFilter := func(what string) {
		t.Helper()
		b.sortHead(scoreCol, "descending")
		b.checkGrid(what+": sort -score", desc)
		b.query(filter)
		b.waitMatches(len(cats))
		b.checkGrid(what+": filter, sorted by -score", byScoreDesc(cats))
	}
	// byX sorts by mean(x), the filter kept.
	byX := func(what string) {
		t.Helper()
		b.setValue(fmt.Sprintf(`[role=columnheader][data-col="%d"] [data-role=sort-stat]`, xCol), "mean")
		b.waitQuery(fmt.Sprintf(`document.querySelector('[role=columnheader][data-col="%d"]').getAttribute('aria-sort') === 'ascending'`, xCol))
		b.waitMatches(len(cats))
		b.checkGrid(what+": filter, sorted by mean(x)", byMean(cats, means))
	}

	t.Run("arrow file dropped", func(t *testing.T) {
		b.t = t
		b.upload(arrowPath)
		b.waitOpened("sources.arrow")
		sortAndFilter("dropped IPC file")
		byX("dropped IPC file")
	})

	t.Run("arrow file by URL", func(t *testing.T) {
		b.t = t
		b.follow("?url=" + url.QueryEscape(host.url("range", "sources-url.arrow")))
		b.waitOpened("sources-url.arrow")
		b.waitFor(`!document.querySelector('[data-role=num-rows]').dataset.query`)
		// What a sort by score needs: the score column's buffers in each
		// record batch, and the batch's header (its message metadata).
		data, err := os.ReadFile(arrowPath)
		if err != nil {
			t.Fatal(err)
		}
		var buffers, headers int64
		for _, bt := range ipcBatches(t, data) {
			buffers += bt.buffers[2][1] + bt.buffers[3][1] // score: validity, values
			headers += int64(bt.body - bt.start)
		}
		// A filter that matches nothing first, so that the sort's result
		// shows no rows to read: what the sort transfers is its scan's.
		// The filter reads x, the last column, far from score's blocks
		// (the reader by URL keeps the blocks it read).
		before := host.sent.Load()
		b.applyQuery("size(x) = 0")
		b.waitMatches(0)
		t.Logf("filter size(x) = 0 over HTTP Range: %d bytes transferred", host.sent.Load()-before)
		before = host.sent.Load()
		b.sortHead(scoreCol, "ascending")
		sent := host.sent.Load() - before
		t.Logf("sort by score over HTTP Range: %d bytes transferred; the score column's buffers %d, the batches' headers %d (%.2f×), file %d",
			sent, buffers, headers, float64(sent)/float64(buffers+headers), len(data))
		// The reader by URL (app/remote) fetches reads of a quarter block
		// and more exactly, so the sort transfers the score column's runs,
		// not the blocks around them: at most 1.3 × (buffers + headers)
		// (less when it keeps a run already read: the first batch's, read
		// whole for the first screen).
		if goal := 1.3 * float64(buffers+headers); float64(sent) > goal {
			t.Errorf("a sort by score transferred %d bytes, more than 1.3 × (buffers + headers) = %.0f", sent, goal)
		}
		if sent < buffers/2 {
			t.Errorf("a sort by score transferred %d bytes, less than half the score column (%d): was it read before?", sent, buffers)
		}
		b.run(chromedp.Click(`[data-role=query]`, chromedp.ByQuery), chromedp.KeyEvent("\x1b"))
		b.waitQuery(`document.querySelector('[data-role=num-rows]').dataset.matches === undefined`)
		b.run(chromedp.Click(fmt.Sprintf(`[role=columnheader][data-col="%d"] [data-action=sort]`, scoreCol), chromedp.ByQuery))
		b.waitQuery(fmt.Sprintf(`document.querySelector('[role=columnheader][data-col="%d"]').getAttribute('aria-sort') === 'descending'`, scoreCol))
		b.checkGrid("IPC file by URL: sort -score", desc)
		before = host.sent.Load()
		b.query(filter)
		b.waitMatches(len(cats))
		t.Logf("filter %s over HTTP Range: %d bytes transferred", filter, host.sent.Load()-before)
		b.checkGrid("IPC file by URL: filter, sorted by -score", byScoreDesc(cats))
	})

	t.Run("arrow stream dropped", func(t *testing.T) {
		b.t = t
		b.upload(streamPath)
		b.waitOpened("sources.arrows")
		sortAndFilter("dropped IPC stream")
	})

	t.Run("parquet dropped", func(t *testing.T) {
		b.t = t
		b.upload(parquetPath)
		b.waitOpened("sources.parquet")
		var createdBy string
		b.eval(`document.querySelector('[data-role=file-info] [data-role=created-by]')?.textContent ?? ''`, &createdBy)
		if !strings.Contains(createdBy, "parquet-rs") {
			t.Errorf("created by %q, want arrow-rs's writer", createdBy)
		}
		sortAndFilter("dropped Parquet")
		byX("dropped Parquet")
	})

	t.Run("parquet by URL with a link's sort and filter", func(t *testing.T) {
		b.t = t
		var chunks int64
		pf, err := file.OpenParquetFile(parquetPath, false)
		if err != nil {
			t.Fatal(err)
		}
		for g := range pf.NumRowGroups() {
			cc, err := pf.MetaData().RowGroup(g).ColumnChunk(scoreCol)
			if err != nil {
				t.Fatal(err)
			}
			chunks += cc.TotalCompressedSize()
		}
		pf.Close()
		before := host.sent.Load()
		link := url.Values{"url": {host.url("range", "sources-url.parquet")}, "sort": {"-score"}, "filter": {filter}}
		b.follow("?" + link.Encode())
		b.waitOpened("sources-url.parquet")
		b.waitMatches(len(cats))
		b.checkGrid("Parquet by URL: the link's filter and sort", byScoreDesc(cats))
		t.Logf("Parquet by URL, opened with the link's sort and filter: %d bytes transferred (the score column's chunks: %d)", host.sent.Load()-before, chunks)
		// Escape clears the filter: every row, by -score.
		b.run(chromedp.Click(`[data-role=query]`, chromedp.ByQuery), chromedp.KeyEvent("\x1b"))
		b.waitQuery(`document.querySelector('[data-role=num-rows]').dataset.matches === undefined`)
		b.checkGrid("Parquet by URL: sort -score", desc)

		// Row groups whose id statistics rule them out are skipped unread:
		// ids from 100,000 lie in the last row group only.
		var late []queryRow
		for _, r := range rows {
			if r.id >= 100_000 && r.label == "cat" {
				late = append(late, r)
			}
		}
		before = host.sent.Load()
		b.query("id >= 100000 and label = 'cat'")
		b.waitMatches(len(late))
		b.checkGrid("Parquet by URL: a filter by id, sorted by -score", byScoreDesc(late))
		var skipped int64
		b.eval(`+document.querySelector('[data-role=query-result]').dataset.skipped`, &skipped)
		if skipped != 3*sourceBatch {
			t.Errorf("rows skipped by row-group statistics: %d, want %d (3 row groups)", skipped, 3*sourceBatch)
		}
		t.Logf("Parquet by URL, a filter ruling out 3 of 4 row groups: %d bytes transferred", host.sent.Load()-before)
	})
}

// TestQueryNestedBatch sorts the file's rows, then sorts, filters and
// computes column statistics inside nested record batches
// (testdata/turtle_nested.arrow, values from turtle_expected.json), each
// level with its own query bar, headers and row count; the breadcrumb
// goes back out to each level's query and result as they were.
func TestQueryNestedBatch(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "turtle_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var expected struct {
		Rows []struct {
			Runs *struct {
				Batch *struct {
					Exposure []float64
					Sub      []*struct{ Batch *struct{ K, V []float64 } }
				}
			}
		}
	}
	if err := json.Unmarshal(data, &expected); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.upload(filepath.Join("..", "testdata", "turtle_nested.arrow"))
	b.waitOpened("turtle_nested.arrow")
	// turtle_expected.json: ids 1..6 in rows 0..5; row 5 ("lone") holds
	// a batch of 1 row, row 0 ("sunny") one of 2, row 4 an error.
	b.sortHead(0, "descending")
	want := []queryRow{{row: 5, id: 6}, {row: 4, id: 5}, {row: 3, id: 4}, {row: 2, id: 3}, {row: 1, id: 2}, {row: 0, id: 1}}
	b.checkGrid("turtle sorted by -id", want)
	crumbs := func(want ...string) {
		t.Helper()
		b.waitFor(fmt.Sprintf(`document.querySelectorAll('[data-role=breadcrumb] li').length === %d`, len(want)))
		var got []string
		b.eval(`[...document.querySelectorAll('[data-role=breadcrumb] li')].map(l => l.textContent)`, &got)
		if !slices.Equal(got, want) {
			t.Errorf("breadcrumb %q, want %q", got, want)
		}
	}
	back := func(level int) {
		t.Helper()
		b.run(chromedp.Click(fmt.Sprintf(`[data-role=breadcrumb] button[data-level="%d"]`, level), chromedp.ByQuery))
	}
	// inner col 1 is exposure (image, exposure, sub); leaf col 1 is v (k, v).
	const exposureCol, vCol = 1, 1

	// Row 5's batch, at the result's first position: a query bar, headers
	// and row count of its own, empty.
	lone := expected.Rows[5].Runs.Batch
	b.run(chromedp.Click(`[data-pos="0"] [data-nested][data-field=runs]`, chromedp.ByQuery))
	crumbs("turtle_nested.arrow", "runs, row 5: lone")
	b.waitFor(`document.querySelector('[data-row] [data-field=exposure]') !== null`)
	var fresh struct {
		Input, Count, Sort, FileCount string
		Matches                       bool
	}
	b.eval(fmt.Sprintf(`({Input: document.querySelector('[data-role=query]').value,
		Count: document.querySelector('[data-role=level-rows]')?.textContent ?? '',
		Matches: 'matches' in (document.querySelector('[data-role=level-rows]')?.dataset ?? {}),
		Sort: document.querySelector('[role=columnheader][data-col="%d"]').getAttribute('aria-sort') ?? '',
		FileCount: document.querySelector('[data-role=num-rows]').textContent})`, exposureCol), &fresh)
	if fresh.Input != "" || fresh.Count != "1 row" || fresh.Matches || fresh.Sort != "none" || fresh.FileCount != "6" {
		t.Errorf("row 5's batch opened with %+v, want an empty query bar, \"1 row\", exposure unsorted, the file's 6 rows in the top bar", fresh)
	}
	b.applyQuery(fmt.Sprintf("exposure = %v", lone.Exposure[0]))
	b.waitMatches(1)
	b.applyQuery(fmt.Sprintf("exposure > %v", lone.Exposure[0]))
	b.waitMatches(0)
	back(0)
	b.waitFor(`document.querySelector('[data-role=breadcrumb]') === null`)
	b.checkGrid("back out of row 5's batch", want)

	// Row 0's batch ("sunny"), at the result's last position: sorted and
	// filtered by its exposure, checked against the values written.
	sunny := expected.Rows[0].Runs.Batch
	b.run(chromedp.Click(`[data-pos="5"] [data-nested][data-field=runs]`, chromedp.ByQuery))
	crumbs("turtle_nested.arrow", "runs, row 0: sunny")
	b.waitFor(`document.querySelector('[data-role=level-rows]')?.textContent === '2 rows'`)
	b.sortHead(exposureCol, "descending")
	byExposure := []int{0, 1}
	slices.SortStableFunc(byExposure, func(i, j int) int { return cmp.Compare(sunny.Exposure[j], sunny.Exposure[i]) })
	b.checkLevel("row 0's batch by -exposure", "exposure", byExposure, sunny.Exposure)
	var below []int
	for r, x := range sunny.Exposure {
		if x < 1 {
			below = append(below, r)
		}
	}
	b.applyQuery("exposure < 1")
	b.waitMatches(len(below))
	b.checkLevel("row 0's batch by -exposure where exposure < 1", "exposure", below, sunny.Exposure)
	var count string
	b.eval(`document.querySelector('[data-role=level-rows]').textContent`, &count)
	if want := fmt.Sprintf("%d of 2 rows", len(below)); count != want {
		t.Errorf("the level's row count says %q, want %q", count, want)
	}
	// Its column statistics: over the whole batch.
	st := b.openStats(exposureCol)
	if st.Figures["count"] != "2" || st.Figures["min"] != fmt.Sprint(slices.Min(sunny.Exposure)) || st.Figures["max"] != fmt.Sprint(slices.Max(sunny.Exposure)) {
		t.Errorf("statistics of row 0's exposure: %v, want count 2, min %v, max %v", st.Figures, slices.Min(sunny.Exposure), slices.Max(sunny.Exposure))
	}
	b.closeStats(exposureCol)

	// A level below: row 0's sub batch, sorted by v.
	leaf := sunny.Sub[0].Batch
	b.run(chromedp.Click(`[data-pos="0"] [data-nested][data-field=sub]`, chromedp.ByQuery))
	crumbs("turtle_nested.arrow", "runs, row 0: sunny", "sub, row 0: a")
	b.waitFor(`document.querySelector('[data-role=level-rows]')?.textContent === '3 rows' && document.querySelector('[data-role=query]').value === ''`)
	b.sortHead(vCol, "ascending")
	byV := []int{0, 1, 2}
	slices.SortStableFunc(byV, func(i, j int) int { return cmp.Compare(leaf.V[i], leaf.V[j]) })
	b.checkLevel("sub batch by v", "v", byV, leaf.V)

	// Back out, one level at a time: each level's query and result as
	// they were.
	back(1)
	crumbs("turtle_nested.arrow", "runs, row 0: sunny")
	b.waitMatches(len(below))
	b.checkLevel("back in row 0's batch", "exposure", below, sunny.Exposure)
	var kept struct{ Input, Sort string }
	b.eval(fmt.Sprintf(`({Input: document.querySelector('[data-role=query]').value,
		Sort: document.querySelector('[role=columnheader][data-col="%d"]').getAttribute('aria-sort')})`, exposureCol), &kept)
	if kept.Input != "exposure < 1" || kept.Sort != "descending" {
		t.Errorf("back in row 0's batch: query bar %q, exposure %s; want its filter and sort", kept.Input, kept.Sort)
	}
	back(0)
	b.waitFor(`document.querySelector('[data-role=breadcrumb]') === null && document.querySelector('[data-role=level-rows]') === null`)
	b.checkGrid("back out of the nested batches", want)
	var file struct{ Sort, Input, Address string }
	b.eval(`({Sort: document.querySelector('[role=columnheader][data-col="0"]').getAttribute('aria-sort'),
		Input: document.querySelector('[data-role=query]').value, Address: location.search})`, &file)
	if file.Sort != "descending" || file.Input != "" {
		t.Errorf("back in the file: id %s, query bar %q; want its sort by -id and no filter", file.Sort, file.Input)
	}
	if q, _ := url.ParseQuery(strings.TrimPrefix(file.Address, "?")); q.Get("sort") != "-id" || q.Has("filter") {
		t.Errorf("address %s: want the file's sort=-id only (a nested batch's query is not in the address)", file.Address)
	}
}

// checkLevel checks the first positions of a nested batch's grid: each
// shows rows[p] (in data-row and its row header) with field's value
// vals[rows[p]], and its position in aria-rowindex; no position past
// them.
func (b *browser) checkLevel(when, field string, rows []int, vals []float64) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`(() => { for (let p = 0; p < %d; p++) { const r = document.querySelector('[data-pos="' + p + '"]');
		if (!r || r.hasAttribute('data-loading') || !r.querySelector('[data-field=%s]')) return false }
		return document.querySelector('[data-pos="%d"]') === null })()`, len(rows), field, len(rows)))
	var got []gridRow
	b.eval(fmt.Sprintf(`[...document.querySelectorAll('[data-pos]')].sort((a, c) => a.dataset.pos - c.dataset.pos)
		.map(r => ({Pos: +r.dataset.pos, Row: +r.dataset.row, Index: +r.getAttribute('aria-rowindex'),
			Head: r.querySelector('[role=rowheader]').textContent, ID: r.querySelector('[data-field=%s]').textContent}))`, field), &got)
	if len(got) != len(rows) {
		b.t.Errorf("%s: %d positions shown, want %d", when, len(got), len(rows))
	}
	for p := range min(len(got), len(rows)) {
		g, r := got[p], rows[p]
		if g.Row != int64(r) || g.Head != fmt.Sprint(r) || g.ID != fmt.Sprint(vals[r]) || g.Index != int64(p)+2 {
			b.t.Errorf("%s: position %d shows row %d (header %q, %s %s, aria-rowindex %d); want row %d, %s %v, aria-rowindex %d",
				when, p, g.Row, g.Head, field, g.ID, g.Index, r, field, vals[r], p+2)
		}
	}
}

// typeCol is a column of typesFixture: its field, each row's value (nil:
// null; float columns hold float64 or float32, NaN included), how two
// values compare, a filter and which rows it matches.
type typeCol struct {
	field  arrow.Field
	vals   []any
	cmp    func(a, b any) int
	filter string
	match  func(v any) bool
}

func ordered[T cmp.Ordered](a, b any) int { return cmp.Compare(a.(T), b.(T)) }

// isNaN reports whether v is a float NaN.
func isNaN(v any) bool {
	switch f := v.(type) {
	case float64:
		return math.IsNaN(f)
	case float32:
		return math.IsNaN(float64(f))
	}
	return false
}

// typesRows is typesFixture's rows, in 2 record batches.
const typesRows, typesBatch = 40, 20

// typesFixture writes an IPC file of typesRows rows: id (100 + the row)
// and a column of every type a sort and a filter take. Row r's value
// follows v = 7r mod 13 - 6 (ties, negatives), null every 9th row from 4,
// NaN in the float columns every 11th from 7.
func typesFixture(t *testing.T) (string, []typeCol) {
	t.Helper()
	words := []string{"apple", "Banana", "cherry", "apple pie", "Éclair", "banana", "", "zebra"}
	animals := []string{"cat", "dog", "bird", "fish", "ant"}
	day := func(y int, m time.Month, d int) int64 { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400 }
	base := time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC) // Paris goes to summer time at 01:00Z
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	big10 := func(n int64, exp int) *big.Int {
		x := big.NewInt(n)
		return x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	}
	clock := func(s string) time.Time { c, _ := time.Parse("15:04:05.999999999", s); return c }
	sinceMidnight := func(c time.Time) int64 {
		return int64(c.Hour())*3600e9 + int64(c.Minute())*60e9 + int64(c.Second())*1e9 + int64(c.Nanosecond())
	}
	type spec struct {
		name   string
		typ    arrow.DataType
		val    func(r, v int) any
		cmp    func(a, b any) int
		filter string
		match  func(v any) bool
	}
	specs := []spec{
		{"i8", arrow.PrimitiveTypes.Int8, func(r, v int) any { return int8(v * 20) }, ordered[int8], "i8 > 40", func(v any) bool { return v.(int8) > 40 }},
		{"i16", arrow.PrimitiveTypes.Int16, func(r, v int) any { return int16(v * 5000) }, ordered[int16], "i16 between -10000 and 10000",
			func(v any) bool { return v.(int16) >= -10000 && v.(int16) <= 10000 }},
		{"i32", arrow.PrimitiveTypes.Int32, func(r, v int) any { return int32(v) * 300_000_000 }, ordered[int32], "i32 < -600000000", func(v any) bool { return v.(int32) < -600000000 }},
		{"i64", arrow.PrimitiveTypes.Int64, func(r, v int) any { return int64(v) * 1_000_000_000_007 }, ordered[int64], "i64 >= 3000000000021", func(v any) bool { return v.(int64) >= 3000000000021 }},
		{"u8", arrow.PrimitiveTypes.Uint8, func(r, v int) any { return uint8((v + 6) * 20) }, ordered[uint8], "u8 >= 200", func(v any) bool { return v.(uint8) >= 200 }},
		{"u16", arrow.PrimitiveTypes.Uint16, func(r, v int) any { return uint16((v + 6) * 5000) }, ordered[uint16], "u16 in (0, 60000, 5000)",
			func(v any) bool { return slices.Contains([]uint16{0, 60000, 5000}, v.(uint16)) }},
		{"u32", arrow.PrimitiveTypes.Uint32, func(r, v int) any { return uint32(v+6) * 350_000_000 }, ordered[uint32], "u32 > 2100000000", func(v any) bool { return v.(uint32) > 2100000000 }},
		{"u64", arrow.PrimitiveTypes.Uint64, func(r, v int) any { return uint64(v+6) * 1_500_000_000_000_000_000 }, ordered[uint64], "u64 > 9223372036854775807",
			func(v any) bool { return v.(uint64) > math.MaxInt64 }},
		{"f16", arrow.FixedWidthTypes.Float16, func(r, v int) any { return float32(v) / 4 }, ordered[float32], "f16 <= -0.5", func(v any) bool { return v.(float32) <= -0.5 }},
		{"f32", arrow.PrimitiveTypes.Float32, func(r, v int) any { return float32(v) * float32(0.1) }, ordered[float32], "f32 > 0.25", func(v any) bool { return v.(float32) > 0.25 }},
		{"f64", arrow.PrimitiveTypes.Float64, func(r, v int) any { return float64(v) / 3 }, ordered[float64], "f64 != 1", func(v any) bool { return v.(float64) != 1 }},
		{"d128", &arrow.Decimal128Type{Precision: 9, Scale: 2}, func(r, v int) any { return big.NewInt(int64(v) * 125) },
			func(a, b any) int { return a.(*big.Int).Cmp(b.(*big.Int)) }, "d128 >= 2.5", func(v any) bool { return v.(*big.Int).Cmp(big.NewInt(250)) >= 0 }},
		{"d256", &arrow.Decimal256Type{Precision: 40, Scale: 3}, func(r, v int) any { return big10(int64(v), 35) },
			func(a, b any) int { return a.(*big.Int).Cmp(b.(*big.Int)) }, "d256 < -100000000000000000000000000000000",
			func(v any) bool { return v.(*big.Int).Cmp(big10(-1, 35)) < 0 }},
		{"s", arrow.BinaryTypes.String, func(r, v int) any { return words[(r*5)%8] }, ordered[string], "s contains 'AN'",
			func(v any) bool { return strings.Contains(strings.ToLower(v.(string)), "an") }},
		{"ls", arrow.BinaryTypes.LargeString, func(r, v int) any { return words[(r*3)%8] }, ordered[string], "ls starts with 'A'",
			func(v any) bool { return strings.HasPrefix(strings.ToLower(v.(string)), "a") }},
		{"sv", arrow.BinaryTypes.StringView, func(r, v int) any { return words[(r*7)%8] }, ordered[string], "sv = 'cherry'", func(v any) bool { return v.(string) == "cherry" }},
		{"b", arrow.FixedWidthTypes.Boolean, func(r, v int) any { return r%3 == 0 }, func(a, b any) int {
			return cmp.Compare(boolInt(a.(bool)), boolInt(b.(bool)))
		}, "b = true", func(v any) bool { return v.(bool) }},
		{"d32", arrow.FixedWidthTypes.Date32, func(r, v int) any { return int64(19700 + v*45) }, ordered[int64], "d32 >= '2024-01-01'",
			func(v any) bool { return v.(int64) >= day(2024, 1, 1) }},
		{"d64", arrow.FixedWidthTypes.Date64, func(r, v int) any { return int64(19000+v*100) * 86400000 }, ordered[int64], "d64 < '2021-06-01'",
			func(v any) bool { return v.(int64) < day(2021, 6, 1)*86400000 }},
		{"t32s", arrow.FixedWidthTypes.Time32s, func(r, v int) any { return int64(43200 + v*3600) }, ordered[int64], "t32s < '12:00'", func(v any) bool { return v.(int64) < 43200 }},
		{"t32ms", arrow.FixedWidthTypes.Time32ms, func(r, v int) any { return int64(43200+v*1234)*1000 + 500 }, ordered[int64], "t32ms between '11:00' and '13:00:00.5'",
			func(v any) bool {
				return v.(int64) >= sinceMidnight(clock("11:00:00"))/1e6 && v.(int64) <= sinceMidnight(clock("13:00:00.5"))/1e6
			}},
		{"t64us", arrow.FixedWidthTypes.Time64us, func(r, v int) any { return int64(43200+v*1800)*1e6 + 7 }, ordered[int64], "t64us >= '14:00'",
			func(v any) bool { return v.(int64) >= sinceMidnight(clock("14:00:00"))/1e3 }},
		{"t64ns", arrow.FixedWidthTypes.Time64ns, func(r, v int) any { return int64(43200+v*600)*1e9 + 1 }, ordered[int64], "t64ns = '12:00:00.000000001'",
			func(v any) bool { return v.(int64) == sinceMidnight(clock("12:00:00.000000001")) }},
		{"ts", &arrow.TimestampType{Unit: arrow.Microsecond}, func(r, v int) any { return base.UnixMicro() + int64(v)*3600e6 }, ordered[int64], "ts > '2024-03-31 02:30'",
			func(v any) bool { return v.(int64) > base.Add(150*time.Minute).UnixMicro() }},
		{"tsutc", &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, func(r, v int) any { return base.UnixMilli() + int64(v)*3600e3 }, ordered[int64],
			"tsutc <= '2024-03-31T00:00:00Z'", func(v any) bool { return v.(int64) <= base.UnixMilli() }},
		{"tsparis", &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Paris"}, func(r, v int) any { return base.UnixNano() + int64(v)*3600e9 }, ordered[int64],
			"tsparis >= '2024-03-31 03:00'", func(v any) bool { return v.(int64) >= time.Date(2024, 3, 31, 3, 0, 0, 0, paris).UnixNano() }},
		{"tsoff", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "+05:30"}, func(r, v int) any { return base.Unix() + int64(v)*3600 }, ordered[int64],
			"tsoff < '2024-03-31 05:30'", func(v any) bool { return v.(int64) < base.Unix() }},
		{"dict", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, func(r, v int) any { return animals[(r*3+1)%5] }, ordered[string],
			"dict in ('cat', 'ant')", func(v any) bool { return v.(string) == "cat" || v.(string) == "ant" }},
	}
	fields := []arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}
	var cols []typeCol
	for _, s := range specs {
		c := typeCol{field: arrow.Field{Name: s.name, Type: s.typ, Nullable: true}, cmp: s.cmp, filter: s.filter, match: s.match}
		for r := range typesRows {
			v := s.val(r, (r*7)%13-6)
			switch {
			case r%9 == 4:
				v = nil
			case r%11 == 7 && s.name == "f64":
				v = math.NaN()
			case r%11 == 7 && (s.name == "f32" || s.name == "f16"):
				v = float32(math.NaN())
			}
			c.vals = append(c.vals, v)
		}
		cols = append(cols, c)
		fields = append(fields, c.field)
	}
	schema := arrow.NewSchema(fields, nil)
	mem := memory.DefaultAllocator
	db := array.NewStringBuilder(mem)
	db.AppendValues(animals, nil)
	dict := db.NewArray() // one dictionary for both batches (an IPC file has one)
	defer dict.Release()
	var recs []arrow.RecordBatch
	for start := 0; start < typesRows; start += typesBatch {
		ids := array.NewInt64Builder(mem)
		for r := start; r < start+typesBatch; r++ {
			ids.Append(int64(100 + r))
		}
		arrs := []arrow.Array{ids.NewArray()}
		for _, c := range cols {
			arrs = append(arrs, typesArray(t, c, start, dict, animals))
		}
		recs = append(recs, array.NewRecordBatch(schema, arrs, typesBatch))
	}
	path := writeIPCFile(t, "types.arrow", schema, recs...)
	for _, r := range recs {
		r.Release()
	}
	return path, cols
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// typesArray builds column c's values of rows start.. of one batch.
func typesArray(t *testing.T, c typeCol, start int, dict arrow.Array, animals []string) arrow.Array {
	t.Helper()
	vals := c.vals[start : start+typesBatch]
	mem := memory.DefaultAllocator
	if dt, ok := c.field.Type.(*arrow.DictionaryType); ok {
		ib := array.NewInt8Builder(mem)
		for _, v := range vals {
			if v == nil {
				ib.AppendNull()
			} else {
				ib.Append(int8(slices.Index(animals, v.(string))))
			}
		}
		return array.NewDictionaryArray(dt, ib.NewArray(), dict)
	}
	bld := array.NewBuilder(mem, c.field.Type)
	defer bld.Release()
	for _, v := range vals {
		if v == nil {
			bld.AppendNull()
			continue
		}
		switch b := bld.(type) {
		case *array.Int8Builder:
			b.Append(v.(int8))
		case *array.Int16Builder:
			b.Append(v.(int16))
		case *array.Int32Builder:
			b.Append(v.(int32))
		case *array.Int64Builder:
			b.Append(v.(int64))
		case *array.Uint8Builder:
			b.Append(v.(uint8))
		case *array.Uint16Builder:
			b.Append(v.(uint16))
		case *array.Uint32Builder:
			b.Append(v.(uint32))
		case *array.Uint64Builder:
			b.Append(v.(uint64))
		case *array.Float16Builder:
			b.Append(float16.New(v.(float32)))
		case *array.Float32Builder:
			b.Append(v.(float32))
		case *array.Float64Builder:
			b.Append(v.(float64))
		case *array.Decimal128Builder:
			b.Append(decimal128.FromBigInt(v.(*big.Int)))
		case *array.Decimal256Builder:
			b.Append(decimal256.FromBigInt(v.(*big.Int)))
		case *array.StringBuilder:
			b.Append(v.(string))
		case *array.LargeStringBuilder:
			b.Append(v.(string))
		case *array.StringViewBuilder:
			b.Append(v.(string))
		case *array.BooleanBuilder:
			b.Append(v.(bool))
		case *array.Date32Builder:
			b.Append(arrow.Date32(v.(int64)))
		case *array.Date64Builder:
			b.Append(arrow.Date64(v.(int64)))
		case *array.Time32Builder:
			b.Append(arrow.Time32(v.(int64)))
		case *array.Time64Builder:
			b.Append(arrow.Time64(v.(int64)))
		case *array.TimestampBuilder:
			b.Append(arrow.Timestamp(v.(int64)))
		default:
			t.Fatalf("no builder for %s", c.field.Type)
		}
	}
	return bld.NewArray()
}

// sorted is the rows of c in its sort order (desc: descending), stable,
// NaN after the values and nulls last in both directions; keep says which
// rows to list (nil: all).
func (c typeCol) sorted(desc bool, keep func(r int) bool) []int {
	rank := func(v any) int {
		switch {
		case v == nil:
			return 2
		case isNaN(v):
			return 1
		}
		return 0
	}
	var rows []int
	for r := range c.vals {
		if keep == nil || keep(r) {
			rows = append(rows, r)
		}
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		va, vb := c.vals[a], c.vals[b]
		if k := cmp.Compare(rank(va), rank(vb)); k != 0 || rank(va) != 0 {
			return k
		}
		if desc {
			return c.cmp(vb, va)
		}
		return c.cmp(va, vb)
	})
	return rows
}

// applyQuery puts text in the query bar and presses Enter there.
func (b *browser) applyQuery(text string) {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`(e => { if (!e) return false; e.value = %q;
		e.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true})); return true })(document.querySelector('[data-role=query]'))`, text), &ok)
	if !ok {
		b.t.Fatal("no query bar")
	}
}

// gridIDs waits for the grid's first n positions and returns their ids.
func (b *browser) gridIDs(n int) []string {
	b.t.Helper()
	var ids []string
	for _, g := range b.gridRows(n) {
		ids = append(ids, g.ID)
	}
	return ids
}

// TestQueryTypes sorts and filters a column of every type (integers of
// every width, floats with NaN, decimal128/256, strings, large strings,
// string views, booleans, dates, times, timestamps naive, in UTC, in a
// named zone and at an offset, a dictionary), each through a link holding
// the sort (?url=…&sort=…, followed in the page), then the query bar's
// filter: every row's place checked against an independent stable sort
// (nulls last, NaN after the numbers), data-matches and the matches' ids
// against the values written.
func TestQueryTypes(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, cols := typesFixture(t)
	files := map[string]string{}
	for i := range cols {
		files[fmt.Sprintf("types-%d.arrow", i)] = path
	}
	host := newFileHost(t, files)
	b := newBrowser(t)
	b.run(chromedp.EmulateViewport(1600, 2600)) // every row in view
	for i, c := range cols {
		name := fmt.Sprintf("types-%d.arrow", i)
		desc := i%2 == 1
		key := c.field.Name
		if desc {
			key = "-" + key
		}
		t.Run(c.field.Name, func(t *testing.T) {
			b.t = t
			b.follow("?" + url.Values{"url": {host.url("range", name)}, "sort": {key}}.Encode())
			b.waitOpened(name)
			b.waitFor(`document.querySelector('[data-role=num-rows]').dataset.query === 'done' || document.querySelector('[data-role=query-error]') !== null`)
			var qerr string
			b.eval(`document.querySelector('[data-role=query-error]')?.textContent ?? ''`, &qerr)
			if qerr != "" {
				t.Fatalf("sort=%s: %s", key, qerr)
			}
			ids := func(rows []int) []string {
				out := []string{}
				for _, r := range rows {
					out = append(out, fmt.Sprint(100+r))
				}
				return out
			}
			if got, want := b.gridIDs(typesRows), ids(c.sorted(desc, nil)); !slices.Equal(got, want) {
				t.Errorf("sort=%s: ids %v, want %v", key, got, want)
			}
			matches := c.sorted(desc, func(r int) bool { return c.vals[r] != nil && c.match(c.vals[r]) }) // NaN != 1 in Go too
			b.applyQuery(c.filter)
			b.waitFor(`(e => e.dataset.query === 'done' && e.dataset.matches !== undefined)(document.querySelector('[data-role=num-rows]')) || document.querySelector('[data-role=query-error]') !== null`)
			b.eval(`document.querySelector('[data-role=query-error]')?.textContent ?? ''`, &qerr)
			if qerr != "" {
				t.Fatalf("filter %s: %s", c.filter, qerr)
			}
			var n string
			b.eval(`document.querySelector('[data-role=num-rows]').dataset.matches`, &n)
			if n != fmt.Sprint(len(matches)) {
				t.Errorf("filter %s: data-matches %s, want %d", c.filter, n, len(matches))
			}
			if got, want := b.gridIDs(len(matches)), ids(matches); !slices.Equal(got, want) {
				t.Errorf("filter %s sorted by %s: ids %v, want %v", c.filter, key, got, want)
			}
		})
	}
}

// TestQueryBrokenBatch filters a file whose record batch 1 (of 3) holds a
// label column that cannot be read (its offsets made to decrease, the
// footer intact): the filter completes, its note counts the 1,000 rows it
// could not read and says why, the matches of batches 0 and 2 are exact,
// and the page goes on: a sort by score then orders them.
func TestQueryBrokenBatch(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, rows := queryFixture(t, "broken.arrow", 3000, 1000)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Buffers of a batch: id validity and values, score validity and
	// values, label validity, offsets (5) and data, then emb's.
	bt := ipcBatches(t, data)[1]
	offs := bt.body + int(bt.buffers[5][0])
	binary.LittleEndian.PutUint32(data[offs+8:], 1<<20) // the third offset: past the data, then decreasing
	broken := filepath.Join(t.TempDir(), "broken.arrow")
	if err := os.WriteFile(broken, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var cats []queryRow
	for _, r := range catsOver09(rows) {
		if r.row < 1000 || r.row >= 2000 {
			cats = append(cats, r)
		}
	}
	b := newBrowser(t)
	b.upload(broken)
	b.waitOpened("broken.arrow")
	b.query("label = 'cat' and score > 0.9")
	b.waitMatches(len(cats))
	b.checkGrid("filter over a broken batch", cats)
	var note string
	b.eval(`document.querySelector('[data-role=query-note]')?.textContent ?? ''`, &note)
	if !strings.Contains(note, "1,000 rows could not be read") || !strings.Contains(note, "record batch 1") || !strings.Contains(note, "label") {
		t.Errorf("the query's note says %q; want the 1,000 rows of record batch 1 and the column", note)
	}
	b.sortHead(1, "descending")
	b.waitMatches(len(cats))
	b.checkGrid("filter over a broken batch, sorted by -score", byScoreDesc(cats))
}
