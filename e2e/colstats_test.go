//go:build !wasm

package e2e

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tensorview/tensorview/tensorext"
)

// statsRow is a row of statsFixture as written: a null is valid false, a
// NaN score nan true.
type statsRow struct {
	id             int64
	score          float64
	scoreNull, nan bool
	label          string
	labelNull      bool
	caption        string
	mean           float64
}

// statsLabels are the label dictionary's values, one with a quote.
var statsLabels = []string{"cat", "dog", "it's", "bird", "<b>fish</b>"}

// statsFixture writes an Arrow IPC file of rows rows in batches of 1000:
// id int64, score float64 (null every 29th row, NaN every 31st), label a
// dictionary of statsLabels (null every 23rd), caption utf8 (15 values, so
// more than the top 10), emb a [2,2] float32 tensor; and returns the rows.
func statsFixture(t *testing.T, rows int) (string, []statsRow) {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 2}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "label", Type: dictType, Nullable: true},
		{Name: "caption", Type: arrow.BinaryTypes.String},
		{Name: "emb", Type: typ},
	}, nil)
	mem := memory.DefaultAllocator
	// One dictionary for every batch: an IPC file has one per field.
	db := array.NewStringBuilder(mem)
	db.AppendValues(statsLabels, nil)
	dict := db.NewArray()
	defer dict.Release()
	var all []statsRow
	var recs []arrow.RecordBatch
	for start := 0; start < rows; start += 1000 {
		n := min(1000, rows-start)
		ids := array.NewInt64Builder(mem)
		scores := array.NewFloat64Builder(mem)
		labels := array.NewInt32Builder(mem)
		caps := array.NewStringBuilder(mem)
		tb := tensorext.NewFixedShapeTensorBuilder(mem, typ)
		var vals []float32
		for r := start; r < start+n; r++ {
			li := (r*r + r/7) % len(statsLabels)
			s := statsRow{id: int64(1000 + r), label: statsLabels[li],
				caption: fmt.Sprintf("photo %d", (r*r)%15)}
			ids.Append(s.id)
			switch {
			case r%29 == 0:
				s.scoreNull = true
				scores.AppendNull()
			case r%31 == 0:
				s.nan, s.score = true, math.NaN()
				scores.Append(s.score)
			default:
				s.score = float64((r*7919)%10007)/10007*4 - 1
				scores.Append(s.score)
			}
			if r%23 == 0 {
				s.labelNull = true
				labels.AppendNull()
			} else {
				labels.Append(int32(li))
			}
			caps.Append(s.caption)
			vals, s.mean = appendEmb(vals, r)
			all = append(all, s)
		}
		if err := tb.AppendTensors(vals); err != nil {
			t.Fatal(err)
		}
		idx := labels.NewArray()
		lab := array.NewDictionaryArray(dictType, idx, dict)
		idx.Release()
		recs = append(recs, array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), scores.NewArray(), lab, caps.NewArray(), tb.NewArray()}, int64(n)))
	}
	path := writeIPCFile(t, "stats.arrow", schema, recs...)
	for _, r := range recs {
		r.Release()
	}
	return path, all
}

// numberStats are the expected statistics of numbers: values (finite or
// NaN), with nulls and NaN counted.
type numberStats struct {
	count, nulls, nan, distinct int
	min, max, mean              float64
	hist                        []int64
}

func numberStatsOf(count int, vals []float64, nulls int) numberStats {
	s := numberStats{count: count, nulls: nulls, min: math.Inf(1), max: math.Inf(-1)}
	seen := map[float64]bool{}
	var sum float64
	var finite []float64
	for _, v := range vals {
		if math.IsNaN(v) {
			s.nan++
			continue
		}
		seen[v] = true
		sum += v
		finite = append(finite, v)
		s.min, s.max = math.Min(s.min, v), math.Max(s.max, v)
	}
	s.distinct, s.mean = len(seen), sum/float64(len(finite))
	s.hist = make([]int64, 20)
	for _, v := range finite {
		b := min(int((v-s.min)/(s.max-s.min)*20), 19)
		s.hist[b]++
	}
	return s
}

// topOf are the values' counts, most frequent first, ties in byte order.
type valueCount struct {
	Value string
	Count int64
}

func topOf(vals []string) []valueCount {
	counts := map[string]int64{}
	for _, v := range vals {
		counts[v]++
	}
	var out []valueCount
	for v, c := range counts {
		out = append(out, valueCount{v, c})
	}
	slices.SortFunc(out, func(a, b valueCount) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Value, b.Value)
	})
	return out
}

// group writes n with thousands separators.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// shownStats is the statistics panel as the page shows it.
type shownStats struct {
	Of      string
	Figures map[string]string
	Bars    []int64
	Top     []valueCount
	Exact   string
}

// openStats clicks column col's statistics button and reads the panel
// once done.
func (b *browser) openStats(col int) shownStats {
	b.t.Helper()
	b.run(chromedp.Click(fmt.Sprintf(`[role=columnheader][data-col="%d"] [data-action=column-stats]`, col), chromedp.ByQuery))
	return b.readStats(col)
}

func (b *browser) readStats(col int) shownStats {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=column-stats][data-col="%d"][data-stats=done] [data-stat=count]') !== null`, col))
	var s shownStats
	b.eval(`(p => ({Of: p.dataset.of,
		Figures: Object.fromEntries([...p.querySelectorAll('[data-stat]')].map(e => [e.dataset.stat, e.querySelector('dd').textContent])),
		Bars: [...p.querySelectorAll('[data-role=hist-bar]')].map(e => +e.dataset.count),
		Top: [...p.querySelectorAll('[data-role=top-value]')].map(e => ({Value: e.dataset.value, Count: +e.dataset.count})),
		Exact: p.querySelector('[data-role=histogram]')?.dataset.exact ?? ''}))(document.querySelector('[data-role=column-stats]'))`, &s)
	return s
}

// closeStats presses Escape and checks that the focus is back on column
// col's statistics button.
func (b *browser) closeStats(col int) {
	b.t.Helper()
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=column-stats]') === null`)
	var back bool
	b.eval(fmt.Sprintf(`document.activeElement === document.querySelector('[role=columnheader][data-col="%d"] [data-action=column-stats]')`, col), &back)
	if !back {
		b.t.Errorf("closed, the focus is not back on column %d's statistics button", col)
	}
}

// themesAxe takes screenshots (name-light, name-dark) and runs axe in
// both themes, then goes back to the light one.
func (b *browser) themesAxe(name string) {
	b.t.Helper()
	for _, theme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}))
		b.screenshot(name + "-" + theme)
		for _, v := range b.axe() {
			b.t.Errorf("%s, %s theme: axe %s (%s): %s at %v", name, theme, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
}

// checkNumbers checks a panel's figures and histogram against want.
func checkNumbers(t *testing.T, what string, got shownStats, want numberStats, minText, maxText string, float bool) {
	t.Helper()
	f := got.Figures
	expect := map[string]string{"count": group(want.count), "nulls": group(want.nulls), "distinct": group(want.distinct), "min": minText, "max": maxText}
	if float {
		expect["nan"] = group(want.nan)
	}
	for k, v := range expect {
		if f[k] != v {
			t.Errorf("%s: %s shows %q, want %q", what, k, f[k], v)
		}
	}
	if len(f) != len(expect)+1 {
		t.Errorf("%s: figures %v", what, f)
	}
	// The mean to the digits shown.
	shown := strings.ReplaceAll(f["mean"], ",", "")
	m, err := strconv.ParseFloat(shown, 64)
	digits := 0
	if _, frac, ok := strings.Cut(shown, "."); ok {
		digits = len(frac)
	}
	if err != nil || math.Abs(m-want.mean) > 0.5*math.Pow(10, -float64(digits))*1.0001 {
		t.Errorf("%s: mean shows %q, want %v", what, f["mean"], want.mean)
	}
	if got.Exact != "true" || !slices.Equal(got.Bars, want.hist) {
		t.Errorf("%s: histogram (exact %q) %v, want %v", what, got.Exact, got.Bars, want.hist)
	}
	var sum int64
	for _, c := range got.Bars {
		sum += c
	}
	if finite := want.count - want.nulls - want.nan; sum != int64(finite) {
		t.Errorf("%s: the bins hold %d rows, want the %d finite values", what, sum, finite)
	}
}

// checkTop checks a panel's figures and top values against the values.
func checkTop(t *testing.T, what string, got shownStats, vals []string, nulls int) {
	t.Helper()
	top := topOf(vals)
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	expect := map[string]string{"count": group(len(vals) + nulls), "nulls": group(nulls), "distinct": group(len(top)),
		"min": sorted[0], "max": sorted[len(sorted)-1]}
	for k, v := range expect {
		if got.Figures[k] != v {
			t.Errorf("%s: %s shows %q, want %q", what, k, got.Figures[k], v)
		}
	}
	if len(got.Figures) != len(expect) {
		t.Errorf("%s: figures %v", what, got.Figures)
	}
	if want := top[:min(10, len(top))]; !slices.Equal(got.Top, want) {
		t.Errorf("%s: top values %v, want %v", what, got.Top, want)
	}
}

// TestColumnStats opens the statistics of each kind of column from its
// header and checks every figure against the values written; a quick
// filter from checkboxes, then a range, writes the query and gives the
// matches expected; axe and screenshots with the panel open in both
// themes.
func TestColumnStats(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, rows := statsFixture(t, 3000)
	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("stats.arrow")

	// The buttons are named for their columns.
	var labels []string
	b.eval(`[...document.querySelectorAll('[role=columnheader] [data-action=column-stats]')].map(e => e.getAttribute('aria-label'))`, &labels)
	if want := []string{"Statistics of id", "Statistics of score", "Statistics of label", "Statistics of caption", "Statistics of emb"}; !slices.Equal(labels, want) {
		t.Errorf("statistics buttons %q, want %q", labels, want)
	}

	// Integers.
	var ids []float64
	for _, r := range rows {
		ids = append(ids, float64(r.id))
	}
	got := b.openStats(0)
	var focused bool
	b.eval(`document.activeElement === document.querySelector('[data-role=column-stats]')`, &focused)
	if !focused {
		t.Error("the statistics dialog does not have the focus")
	}
	checkNumbers(t, "id", got, numberStatsOf(len(rows), ids, 0), "1,000", group(int(rows[len(rows)-1].id)), false)
	b.closeStats(0)

	// Floats with NaN and nulls.
	var scores []float64
	nulls := 0
	for _, r := range rows {
		if r.scoreNull {
			nulls++
			continue
		}
		scores = append(scores, r.score)
	}
	want := numberStatsOf(len(rows), scores, nulls)
	got = b.openStats(1)
	checkNumbers(t, "score", got, want, strconv.FormatFloat(want.min, 'g', -1, 64), strconv.FormatFloat(want.max, 'g', -1, 64), true)
	b.themesAxe("colstats-score")
	b.narrow("colstats-score-360", `[data-role=column-stats]`)
	b.closeStats(1)

	// A dictionary with nulls; strings.
	var labelVals, captions []string
	labelNulls := 0
	for _, r := range rows {
		captions = append(captions, r.caption)
		if r.labelNull {
			labelNulls++
			continue
		}
		labelVals = append(labelVals, r.label)
	}
	got = b.openStats(2)
	checkTop(t, "label", got, labelVals, labelNulls)
	b.themesAxe("colstats-label")
	b.closeStats(2)
	got = b.openStats(3)
	checkTop(t, "caption", got, captions, 0)
	b.closeStats(3)

	// A tensor column: the distribution of mean(emb).
	var means []float64
	for _, r := range rows {
		means = append(means, r.mean)
	}
	wantMean := numberStatsOf(len(rows), means, 0)
	got = b.openStats(4)
	if got.Of != "mean(emb)" {
		t.Errorf("the tensor column's statistics are of %q, want mean(emb)", got.Of)
	}
	checkNumbers(t, "mean(emb)", got, wantMean, strconv.FormatFloat(wantMean.min, 'g', -1, 64), strconv.FormatFloat(wantMean.max, 'g', -1, 64), true)
	b.screenshot("colstats-emb")
	// Another statistic, chosen in the panel: max(emb).
	var maxes []float64
	for r := range rows {
		vals, _ := appendEmb(nil, r)
		maxes = append(maxes, float64(slices.Max(vals)))
	}
	wantMax := numberStatsOf(len(rows), maxes, 0)
	b.setValue(`[data-role=column-stats] [data-role=stats-fn]`, "max")
	b.waitFor(`document.querySelector('[data-role=column-stats]').dataset.of === 'max(emb)'`)
	got = b.readStats(4)
	checkNumbers(t, "max(emb)", got, wantMax, strconv.FormatFloat(wantMax.min, 'g', -1, 64), strconv.FormatFloat(wantMax.max, 'g', -1, 64), true)
	b.closeStats(4)

	// Quick filter: two labels checked.
	b.openStats(2)
	b.eval(`(vals => { for (const li of document.querySelectorAll('[data-role=top-value]')) if (vals.includes(li.dataset.value)) li.querySelector('input').click(); return true })(["cat", "it's"])`, nil)
	b.run(chromedp.Click(`[data-role=column-stats] [data-action=quick-filter]`, chromedp.ByQuery))
	inLabels := 0
	for _, r := range rows {
		if !r.labelNull && (r.label == "cat" || r.label == "it's") {
			inLabels++
		}
	}
	b.waitQuery(fmt.Sprintf(`document.querySelector('[data-role=num-rows]').dataset.matches === '%d'`, inLabels))
	var text string
	b.eval(`document.querySelector('[data-role=query]').value`, &text)
	if want := "label in ('cat', 'it''s')"; text != want {
		t.Errorf("the quick filter wrote %q, want %q", text, want)
	}

	// Then a range of scores, AND-ed; the panel says the filter is not
	// applied to its statistics.
	b.run(chromedp.Click(`[role=columnheader][data-col="1"] [data-action=column-stats]`, chromedp.ByQuery))
	b.readStats(1)
	var scope string
	b.eval(`document.querySelector('[data-role=stats-scope]').textContent`, &scope)
	if scope != "Over all 3,000 rows of the file, not only the filter's matches" {
		t.Errorf("scope %q", scope)
	}
	b.setValue(`[data-role=range-lo]`, "0.25")
	b.setValue(`[data-role=range-hi]`, "1.5")
	b.run(chromedp.Click(`[data-role=column-stats] [data-action=quick-filter]`, chromedp.ByQuery))
	both := 0
	for _, r := range rows {
		if !r.labelNull && (r.label == "cat" || r.label == "it's") && !r.scoreNull && !r.nan && r.score >= 0.25 && r.score <= 1.5 {
			both++
		}
	}
	b.waitQuery(fmt.Sprintf(`document.querySelector('[data-role=num-rows]').dataset.matches === '%d'`, both))
	b.eval(`document.querySelector('[data-role=query]').value`, &text)
	if want := "label in ('cat', 'it''s') and score between 0.25 and 1.5"; text != want {
		t.Errorf("the range wrote %q, want %q", text, want)
	}
	// Opened again, the quick filters show the filter applied: the labels
	// checked, the range typed.
	b.openStats(2)
	var checked []string
	b.eval(`[...document.querySelectorAll('[data-role=top-value]')].filter(li => li.querySelector('input').checked).map(li => li.dataset.value)`, &checked)
	if slices.Sort(checked); !slices.Equal(checked, []string{"cat", "it's"}) {
		t.Errorf("opened again, the labels checked are %q, want cat and it's", checked)
	}
	b.closeStats(2)
	// A bound that is no number: said in the panel, nothing applied.
	b.run(chromedp.Click(`[role=columnheader][data-col="1"] [data-action=column-stats]`, chromedp.ByQuery))
	b.readStats(1)
	var bounds []string
	b.eval(`[document.querySelector('[data-role=range-lo]').value, document.querySelector('[data-role=range-hi]').value]`, &bounds)
	if !slices.Equal(bounds, []string{"0.25", "1.5"}) {
		t.Errorf("opened again, the range reads %q, want 0.25 to 1.5", bounds)
	}
	b.setValue(`[data-role=range-lo]`, "abc")
	b.run(chromedp.Click(`[data-role=column-stats] [data-action=quick-filter]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=quick-error]') !== null`)
	b.closeStats(1)
}

// TestColumnStatsPanelCancel cancels the statistics of a million rows mid-way
// (reads made slow), then computes them again to the end.
func TestColumnStatsPanelCancel(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path, rows := queryFixture(t, "million.arrow", 1_000_000, 1<<16)
	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("million.arrow")
	b.slowReads(1<<20, 300)
	b.run(chromedp.Click(`[role=columnheader][data-col="1"] [data-action=column-stats]`, chromedp.ByQuery))
	b.waitFor(`+document.querySelector('[data-role=column-stats] [data-role=progress][data-task=stats]')?.dataset.rowsDone > 0`)
	var done, total int64
	b.eval(`+document.querySelector('[data-role=progress][data-task=stats]').dataset.rowsDone`, &done)
	b.eval(`+document.querySelector('[data-role=progress][data-task=stats]').dataset.rowsTotal`, &total)
	if done <= 0 || done >= total || total != int64(len(rows)) {
		t.Errorf("progress %d of %d rows, want mid-way of %d", done, total, len(rows))
	}
	b.screenshot("colstats-running")
	b.run(chromedp.Click(`[data-role=column-stats] [data-role=progress] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=column-stats][data-stats=cancelled] [data-role=stats-cancelled]') !== null
		&& document.querySelector('[data-role=column-stats] [data-role=progress]') === null`)
	b.screenshot("colstats-cancelled")
	b.eval(`window.__slow = false; true`, nil)
	b.run(chromedp.Click(`[data-role=column-stats] [data-action=stats-again]`, chromedp.ByQuery))
	got := b.readStats(1)
	nulls := 0
	for _, r := range rows {
		if r.null {
			nulls++
		}
	}
	if got.Figures["count"] != "1,000,000" || got.Figures["nulls"] != group(nulls) {
		t.Errorf("computed again: %v", got.Figures)
	}
}
