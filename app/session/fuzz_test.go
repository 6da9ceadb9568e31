package session

import (
	"os"
	"reflect"
	"testing"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/viewstate"
)

// fuzzFiles are the files FuzzModel opens: one with nested record batches
// (turtle_nested.arrow: 6 rows, field runs), one with tensors, images and
// a mask pair over its thumbnails (js_big.arrow: 64 rows).
var fuzzFiles = []string{"turtle_nested.arrow", "js_big.arrow"}

// fuzzFilters are the query bar's texts FuzzModel applies: a filter, a
// filter of no match, one that compiles against js_big.arrow only, one
// that never compiles, and none.
var fuzzFilters = []string{"id > 2", "id < 0", "caption != 'x'", "id >", ""}

// fuzzPage carries out a Model's effects as the page does, but at the
// fuzzer's pace: a scan or statistics it is asked to start runs at once,
// and its reports wait in pending until the fuzzer delivers them (so that
// they may come after the job was stopped); a history timer's flush
// waits there too.
type fuzzPage struct {
	t       *testing.T
	m       *Model
	data    map[string][]byte
	pending []Action
}

func newFuzzPage(t *testing.T) *fuzzPage {
	p := &fuzzPage{t: t, m: NewModel("https://example.org/tensorview/"), data: map[string][]byte{}}
	for _, name := range fuzzFiles {
		b, err := os.ReadFile("../../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		p.data[name] = b
	}
	return p
}

// open opens fuzzFiles[k] afresh and tells the model.
func (p *fuzzPage) open(k int) {
	name := fuzzFiles[k%len(fuzzFiles)]
	f, err := decode.Open(name, p.data[name])
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(f.Close)
	p.do(Opened{File: f})
}

// do applies a, carries out its effects, and checks the model's
// invariants.
func (p *fuzzPage) do(a Action) {
	p.t.Helper()
	for _, e := range p.m.Do(a) {
		switch e := e.(type) {
		case StartScan:
			RunScan(e.Ctx, e.File, e.Plan, func() {}, func(ev ScanEvent) {
				p.pending = append(p.pending, ScanReport{Job: e.Job, Query: e.Query, Event: ev})
			})
		case StartStats:
			RunStats(e.Ctx, e.File, e.Stats, func() {}, func(ev StatsEvent) {
				p.pending = append(p.pending, StatsReport{Job: e.Job, Event: ev})
			})
		case History:
			if s, ok := e.E.(viewstate.Schedule); ok {
				p.pending = append(p.pending, Address{viewstate.Flush{Gen: s.Gen}})
			}
		}
	}
	p.check(a)
}

// deliver passes a pending action on (the k-th, or its job's first
// report waiting); a report of a job no longer
// live must change nothing.
func (p *fuzzPage) deliver(k int) {
	if len(p.pending) == 0 {
		return
	}
	k %= len(p.pending)
	// A job's reports come in the order it made them (the page's
	// dispatch keeps it); those of different jobs interleave freely.
	for j := range k {
		if job := jobOf(p.pending[j]); job != 0 && job == jobOf(p.pending[k]) {
			k = j
			break
		}
	}
	a := p.pending[k]
	p.pending = append(p.pending[:k], p.pending[k+1:]...)
	var stale func() bool
	switch r := a.(type) {
	case ScanReport:
		if !p.m.jobs.Live(r.Job) {
			before := *r.Query
			stale = func() bool { return reflect.DeepEqual(before, *r.Query) }
		}
	case StatsReport:
		if !p.m.jobs.Live(r.Job) {
			before, elems := p.m.stats, p.m.elems
			stale = func() bool { return reflect.DeepEqual(before, p.m.stats) && reflect.DeepEqual(elems, p.m.elems) }
		}
	}
	p.do(a)
	if stale != nil && !stale() {
		p.t.Fatalf("a report of a stopped job changed the model: %#v", a)
	}
}

// jobOf is the job a report is of (0: none, a history timer's flush).
func jobOf(a Action) JobID {
	switch r := a.(type) {
	case ScanReport:
		return r.Job
	case StatsReport:
		return r.Job
	}
	return 0
}

// check fails the test when the model contradicts itself after a.
func (p *fuzzPage) check(a Action) {
	p.t.Helper()
	m := p.m
	if n, d := len(m.State().Nested), m.levels.Depth(); n != d {
		p.t.Fatalf("after %#v: the address names %d nested levels, %d are open", a, n, d)
	}
	want := map[JobID]bool{}
	for k := 0; k < m.levels.Len(); k++ {
		q := m.levels.At(k).Query
		if q.Status == StatusRunning && q.Job == 0 {
			p.t.Fatalf("after %#v: level %d's query runs with no job", a, k)
		}
		if q.Job != 0 {
			want[q.Job] = true
		}
		p.checkMatches(a, k)
	}
	if m.stats.Status == StatusRunning && m.stats.Job == 0 {
		p.t.Fatalf("after %#v: the statistics run with no job", a)
	}
	if m.stats.Job != 0 {
		want[m.stats.Job] = true
	}
	if m.elems.Status == StatusRunning && m.elems.Job == 0 {
		p.t.Fatalf("after %#v: the inspector's column statistics run with no job", a)
	}
	if m.elems.Job != 0 {
		want[m.elems.Job] = true
	}
	if in := m.State().Inspector; m.elems.Open != (in != nil && fieldIndex(m.Shown(), in.Field) >= 0) ||
		(m.elems.Open && (m.elems.file != m.Shown() || m.Shown().Fields()[m.elems.Col].Name != in.Field)) {
		p.t.Fatalf("after %#v: the inspector's column statistics are of column %d (open %v), the inspector on %+v", a, m.elems.Col, m.elems.Open, in)
	}
	got := map[JobID]bool{}
	for id := range m.jobs.live {
		got[id] = true
	}
	if !reflect.DeepEqual(got, want) {
		p.t.Fatalf("after %#v: jobs running %v, the levels and statistics name %v", a, got, want)
	}
}

// checkMatches checks a done filter of level k: its rows are distinct
// rows of the level's file, as many as its match count.
func (p *fuzzPage) checkMatches(a Action, k int) {
	lv := p.m.levels.At(k)
	q := lv.Query
	if q.Status != StatusDone || q.Plan.FilterExpr == nil {
		return
	}
	rows, _ := lv.File.Rows()
	seen := map[int64]bool{}
	for _, r := range OrderRows(q.Order) {
		if r < 0 || r >= rows || seen[r] {
			p.t.Fatalf("after %#v: level %d's filter shows row %d twice or out of [0, %d)", a, k, r, rows)
		}
		seen[r] = true
	}
	if int64(len(seen)) != q.Matches {
		p.t.Fatalf("after %#v: level %d's filter shows %d rows of %d matches", a, k, len(seen), q.Matches)
	}
}

// FuzzModel applies sequences of the page's actions (files opened,
// queries, statistics, nested levels, masks, the inspector) with the
// background work's reports delivered late, out of order or after their
// job was stopped, and checks after each: the address and the levels
// agree, exactly the jobs the levels and statistics name are running, a
// done filter's rows are its matches, a stale report changes nothing; and
// once every report is in, no job is left running.
func FuzzModel(f *testing.F) {
	f.Add([]byte{0, 2, 11, 11, 11, 8, 2, 11, 9, 11})
	f.Add([]byte{1, 3, 16, 6, 11, 4, 11, 11, 7, 10, 12})
	f.Add([]byte{1, 2, 1, 11, 2, 11, 0, 11, 11, 5, 6, 20, 11})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 48 {
			ops = ops[:48]
		}
		p := newFuzzPage(t)
		for i, op := range ops {
			arg := int(op / 13)
			if p.m.Shown() == nil && op%13 != 1 {
				p.open(arg)
				continue
			}
			switch op % 13 {
			case 0:
				p.open(arg)
			case 1:
				p.open(i)
			case 2:
				p.do(Filter{Text: fuzzFilters[arg%len(fuzzFilters)]})
			case 3:
				p.do(SortBy{Col: arg % 5, Fn: []string{"", "mean", "max"}[i%3], Clear: arg%7 == 6})
			case 4:
				p.do(QueryCancel{})
			case 5:
				p.do(QueryClear{})
			case 6:
				p.do(OpenStats{Col: arg % 5})
			case 7:
				switch arg % 4 {
				case 0:
					p.do(StatsCancel{})
				case 1:
					p.do(StatsClose{})
				case 2:
					p.do(ElementStats{})
				case 3:
					p.do(ElementStatsCancel{})
				}
			case 8:
				p.do(OpenNested{Col: arg % 3, Row: int64(i % 7)})
			case 9:
				p.do(Crumb{Level: arg % 3})
			case 10:
				if masks := p.m.Masks(); len(masks) > 0 {
					p.do(ToggleMask{Key: masks[arg%len(masks)].Key()})
				}
			case 11:
				p.deliver(arg)
			case 12:
				if arg%4 == 3 {
					p.do(Address{A: viewstate.CloseInspector{}})
				} else {
					p.do(Inspect{Col: arg % 5, Row: int64(i % 70)})
				}
			}
		}
		for len(p.pending) > 0 {
			p.deliver(0)
		}
		if n := p.m.jobs.Running(); n != 0 {
			t.Fatalf("after %v and every report: %d jobs still running", ops, n)
		}
	})
}
