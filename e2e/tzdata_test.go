package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/chromedp"
)

// zonesFixture writes an IPC file of 6 rows: id (100 + the row) and a
// timestamp column (seconds) of type typ, row r at 2024-03-31 00:00Z + r
// hours (Paris goes to summer time at 01:00Z, New York is already on it).
// It returns the path and each row's text as arrow-go's ValueStr gives it
// here (natively: the system's or Go's own zone database).
func zonesFixture(t *testing.T, name string, typ *arrow.TimestampType) (string, []string) {
	t.Helper()
	const rows = 6
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "ts", Type: typ, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	base := time.Date(2024, 3, 31, 0, 0, 0, 0, time.UTC).Unix()
	for r := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(100 + r))
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(base + int64(r)*3600))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	want := make([]string, rows)
	for r := range rows {
		want[r] = rec.Column(1).ValueStr(r)
	}
	return writeIPCFile(t, name, schema, rec), want
}

// TestTimeZonesOnDemand: the zone database is not in the wasm but fetched
// (web/tzdata.zip) the first time a named zone is looked up. A file whose
// timestamps are naive, in UTC or at an offset opens without it; one in
// Europe/Paris fetches it once and shows its times in Paris time, across
// the change to summer time, as arrow-go natively; filtering on that column
// reads its literal in Paris time too. Another zone then needs no fetch.
func TestTimeZonesOnDemand(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	var zoneFetches atomic.Int32
	b := newBrowserServing(t, "", "", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/web/tzdata.zip") {
				zoneFetches.Add(1)
			}
			h.ServeHTTP(w, r)
		})
	})
	b.run(chromedp.EmulateViewport(1600, 1200))
	files := map[string]string{}
	wants := map[string][]string{}
	for _, f := range []struct {
		name string
		typ  *arrow.TimestampType
	}{
		{"naive.arrow", &arrow.TimestampType{Unit: arrow.Second}},
		{"utc.arrow", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}},
		{"offset.arrow", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "+05:30"}},
		{"paris.arrow", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "Europe/Paris"}},
		{"newyork.arrow", &arrow.TimestampType{Unit: arrow.Second, TimeZone: "America/New_York"}},
	} {
		files[f.name], wants[f.name] = zonesFixture(t, f.name, f.typ)
	}
	if w := wants["paris.arrow"]; w[0] != "2024-03-31T01:00:00+01:00" || w[1] != "2024-03-31T03:00:00+02:00" {
		t.Fatalf("arrow-go natively: %v", w) // the expectation itself
	}
	host := newFileHost(t, files)
	open := func(name string, fetches int32) {
		t.Helper()
		b.follow("?" + url.Values{"url": {host.url("range", name)}}.Encode())
		b.waitOpened(name)
		b.gridRows(len(wants[name]))
		var got []string
		b.eval(`[...document.querySelectorAll('[data-pos]')].sort((a, c) => a.dataset.pos - c.dataset.pos)
			.map(r => r.querySelector('[data-field=ts]').textContent)`, &got)
		if fmt.Sprint(got) != fmt.Sprint(wants[name]) {
			t.Errorf("%s: cells %q, want %q", name, got, wants[name])
		}
		if n := zoneFetches.Load(); n != fetches {
			t.Errorf("after %s: web/tzdata.zip fetched %d times, want %d", name, n, fetches)
		}
	}
	open("naive.arrow", 0)
	open("utc.arrow", 0)
	open("offset.arrow", 0)
	open("paris.arrow", 1)
	b.screenshot("timezones-paris")
	b.applyQuery("ts >= '2024-03-31 03:00'") // Paris time: 01:00Z, rows 1 to 5
	b.waitFor(`(e => e.dataset.query === 'done' && e.dataset.matches !== undefined)(document.querySelector('[data-role=num-rows]')) || document.querySelector('[data-role=query-error]') !== null`)
	var matches, qerr string
	b.eval(`document.querySelector('[data-role=query-error]')?.textContent ?? ''`, &qerr)
	b.eval(`document.querySelector('[data-role=num-rows]').dataset.matches ?? ''`, &matches)
	if qerr != "" || matches != "5" {
		t.Errorf("filter in Paris time: %q matches, error %q; want 5", matches, qerr)
	}
	open("newyork.arrow", 1)
}
