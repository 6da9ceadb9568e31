package e2e

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// pngRowsFile writes batches record batches of perBatch rows: id (the row
// number), image (the formula PNG of images_bytes.arrow in every row) and
// pad (pad zero bytes a row: a file over decode.DefaultSmallFile has its
// row count estimated until indexed).
func pngRowsFile(t *testing.T, name string, batches, perBatch, pad int) string {
	t.Helper()
	png := formulaPNG(t)
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "image", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "pad", Type: arrow.BinaryTypes.Binary},
	}, nil)
	var recs []arrow.RecordBatch
	for b := range batches {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		pics := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		pads := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		for i := range perBatch {
			ids.Append(int64(b*perBatch + i))
			pics.Append(png)
			pads.Append(make([]byte, pad))
		}
		cols := []arrow.Array{ids.NewArray(), pics.NewArray(), pads.NewArray()}
		ids.Release()
		pics.Release()
		pads.Release()
		recs = append(recs, array.NewRecordBatch(schema, cols, int64(perBatch)))
		for _, c := range cols {
			c.Release()
		}
	}
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	return writeIPCFile(t, name, schema, recs...)
}

// firstScreenLog records, at every change of the page, where the file's
// first screen is and what else the page shows: the rows table's
// data-first-screen, the rows drawn and loading, whether every thumbnail
// drawn is painted (its first pixel opaque: the rows whose are), the
// schema panel's data-filled, the row count's data-exact and an indexing
// progress bar.
const firstScreenLog = `
window.__screens = [];
new MutationObserver(() => {
	const rows = [...document.querySelectorAll('[data-role=rows]')].find(e => !e.closest('.warm-up'));
	if (!rows) return;
	const drawn = [...rows.querySelectorAll('.rows-body > [data-row]')];
	const thumbs = [...rows.querySelectorAll('[data-row] canvas[data-image-format]')];
	const s = {
		Step: rows.dataset.firstScreen || '',
		Rows: drawn.length,
		Loading: drawn.filter(e => e.hasAttribute('data-loading')).length,
		Thumbs: thumbs.length,
		Painted: thumbs.filter(c => c.getContext('2d').getImageData(0, 0, 1, 1).data[3] === 255).map(c => +c.closest('[data-row]').dataset.row),
		Filled: document.querySelector('[data-role=schema-panel][data-filled=true]') !== null,
		Exact: document.querySelector('[data-role=num-rows][data-exact=true]') !== null,
		Indexing: document.querySelector('[data-role=progress][data-task=index]') !== null,
	};
	const l = window.__screens, last = l[l.length - 1];
	if (!last || JSON.stringify(last) !== JSON.stringify(s)) l.push(s);
}).observe(document, {subtree: true, childList: true, attributes: true});
`

// screenState is one entry of firstScreenLog.
type screenState struct {
	Step                    string
	Rows, Loading, Thumbs   int
	Painted                 []int
	Filled, Exact, Indexing bool
}

// TestFirstScreenFirst: a dropped file's first screen is its rows in view,
// their data and thumbnails, before anything else: the rows table's
// data-first-screen goes reading → painting → shown, and only once it is
// shown (the rows in view read, every thumbnail drawn painted) do the rows
// past the view come (data-settled), the closed schema panel get its
// content (data-filled) and the record batches get indexed (the file is
// big enough for its row count to be estimated until then). The page's
// changes are recorded as they come (firstScreenLog): a thumbnail drawn
// changes no element, so the rows of the first screen are those of the
// last change before it was shown, and their thumbnails are painted by
// the change that shows it.
func TestFirstScreenFirst(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const batches, perBatch, pad = 6, 20, 160 << 10 // 19.7 MB
	path := pngRowsFile(t, "first-screen.arrow", batches, perBatch, pad)

	b := newBrowserWith(t, "", firstScreenLog)
	b.upload(path)
	b.waitOpened("first-screen.arrow")
	b.waitFor(`document.querySelector('[data-role=rows][data-settled=true][data-first-screen=shown]') !== null
		&& document.querySelector('[data-role=num-rows][data-exact=true]') !== null`)
	var log []screenState
	b.eval(`window.__screens`, &log)
	// Rows in view: the container's height over the row height (84 px,
	// medium previews) plus the one cut at the bottom, or as many for the
	// height the table has before it is measured (560 px).
	var inView int
	b.eval(`Math.max(Math.floor((document.querySelector('[data-role=rows]').clientHeight - 36) / 84) + 1, 7)`, &inView)

	var steps []string
	shown := -1
	for i, s := range log {
		if len(steps) == 0 || steps[len(steps)-1] != s.Step {
			steps = append(steps, s.Step)
		}
		if s.Step == "shown" && shown < 0 {
			shown = i
		}
		if s.Step == "shown" {
			continue
		}
		if s.Filled || s.Exact || s.Indexing || s.Rows > inView+1 {
			t.Errorf("before the first screen was shown (%q): %+v, want the schema panel empty, the count estimated, no indexing, at most %d rows", s.Step, s, inView+1)
		}
	}
	if want := fmt.Sprint([]string{"reading", "painting", "shown"}); fmt.Sprint(steps) != want && fmt.Sprint(steps) != fmt.Sprint([]string{"painting", "shown"}) {
		t.Errorf("data-first-screen went %v, want %s (or painting, shown: the rows in with the first frame)", steps, want)
	}
	if shown < 1 {
		t.Fatalf("the first screen was shown at change %d: %+v", shown, log)
	}
	before := log[shown-1]
	if before.Loading != 0 || before.Thumbs != before.Rows || before.Rows == 0 {
		t.Errorf("just before the first screen was shown: %+v, want its rows read, each with a thumbnail", before)
	}
	for row := range before.Rows {
		if !slices.Contains(log[shown].Painted, row) {
			t.Errorf("when the first screen was shown, row %d's thumbnail was not painted (painted: %v)", row, log[shown].Painted)
		}
	}
	last := log[len(log)-1]
	if !last.Filled || !last.Exact || last.Rows <= inView+1 {
		t.Errorf("after the first screen: %+v, want the schema panel filled, the count exact, the rows past the view drawn", last)
	}
	var count string
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &count)
	if want := fmt.Sprint(batches * perBatch); !bytes.Contains([]byte(count), []byte(want)) {
		t.Errorf("row count %q, want %s", count, want)
	}
}
