//go:build !wasm

package ui

import (
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/ui/open"
)

// TestAttributeValues: the values of data-state, data-task and
// data-warm-up, which web/boot.js, the end-to-end tests and embedding
// pages read.
func TestAttributeValues(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{open.StateStarting.Drawn().String(), "loading"},
		{open.StateEmpty.Drawn().String(), "empty"},
		{open.StateLoading.Drawn().String(), "loading"},
		{open.StateReady.Drawn().String(), "ready"},
		{open.StateError.Drawn().String(), "error"},
		{open.TaskNone.String(), ""},
		{open.TaskIndex.String(), "index"},
		{open.TaskDownload.String(), "download"},
		{open.WarmUpPending.String(), ""},
		{open.WarmUpDone.String(), "done"},
		{open.WarmUpFailed.String(), "failed"},
		{open.WarmUpSkipped.String(), "skipped"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestStatus: what the page says while a file is read and when it cannot
// be opened.
func TestStatus(t *testing.T) {
	var s open.Status
	if s.LoadingText() != "" {
		t.Errorf("a page that reads nothing says %q", s.LoadingText())
	}
	s.Reading("a.arrow")
	if got := s.LoadingText(); got != "Reading a.arrow…" || s.State != open.StateLoading {
		t.Errorf("reading: %q in state %v", got, s.State)
	}
	s.Phase = "Loading the Parquet reader…"
	if got := s.LoadingText(); got != s.Phase {
		t.Errorf("waiting for the Parquet reader: %q", got)
	}
	s.Failed("not an Arrow IPC file or stream")
	if s.LoadingText() != "" || s.State != open.StateError || s.AlertTitle() != "Cannot open a.arrow. " {
		t.Errorf("failed: %q, state %v, alert %q", s.LoadingText(), s.State, s.AlertTitle())
	}
	s.Reading("b.arrow")
	if s.Phase != "" || s.ErrText != "" {
		t.Errorf("reading another file keeps phase %q, error %q", s.Phase, s.ErrText)
	}
	s.FailedOn("", "nothing was dropped that can be read as a file")
	if s.AlertTitle() != "Cannot open this file. " || s.State != open.StateError {
		t.Errorf("a failed drop: %q in state %v", s.AlertTitle(), s.State)
	}
	// A page that has not started says it is loading, but names no file.
	if got := (open.Status{Loading: "c.arrow"}).LoadingText(); got != "Reading c.arrow…" {
		t.Errorf("before the start, with a file taken from web/boot.js: %q", got)
	}
}

// TestCacheBudget: cache=<MiB> in the address, else the default.
func TestCacheBudget(t *testing.T) {
	for q, want := range map[string]int64{
		"":          decode.DefaultBudget,
		"cache=64":  64 << 20,
		"cache=0.5": 1 << 19,
		"cache=0":   decode.DefaultBudget,
		"cache=-3":  decode.DefaultBudget,
		"cache=lot": decode.DefaultBudget,
	} {
		v, _ := url.ParseQuery(q)
		if got := open.CacheBudget(v); got != want {
			t.Errorf("%q: %d, want %d", q, got, want)
		}
	}
}

// TestNestedTexts: a nested record batch's breadcrumb and alert.
func TestNestedTexts(t *testing.T) {
	if got := session.NestedLabel("runs", 3, "sunny"); got != "runs, row 3: sunny" {
		t.Errorf("label %q", got)
	}
	if got := session.NestedWhat("runs", 3); got != "the nested record batch of runs, row 3" {
		t.Errorf("alert %q", got)
	}
}

// TestActionValue: a typed action's handler gets the values of its type,
// and not a value of another type sent under its name.
func TestActionValue(t *testing.T) {
	const probe kit.Action[int] = "tv/test-int"
	var got []int
	h := probe.Handler(func(_ app.Context, n int) { got = append(got, n) })
	for _, v := range []any{7, "eight", int64(8), nil, 9} {
		h(app.Context{}, app.Action{Name: string(probe), Value: v})
	}
	if len(got) != 2 || got[0] != 7 || got[1] != 9 {
		t.Errorf("the handler got %v, want [7 9]", got)
	}
}

// TestViewerRoot: the root element's attributes in each state, as the
// page renders them (the end-to-end tests, web/boot.js and embedding pages
// read them): the server-rendered page, then pages of each state.
func TestViewerRoot(t *testing.T) {
	noop := func(app.Context, app.Event) {}
	root := func(attrs ...string) app.HTMLDiv {
		d := app.Div().Class("viewer").OnDragEnter(noop).OnDragOver(noop).OnDragLeave(noop).OnDrop(noop).OnKeyDown(noop)
		for i := 0; i < len(attrs); i += 2 {
			d = d.Attr(attrs[i], attrs[i+1])
		}
		return d
	}
	server := &Viewer{}
	e := app.NewTestEngine()
	if err := e.Load(server); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	if err := app.Match(root("data-state", "empty", "data-embed", "false", "data-ready", "false"), server, 0); err != nil {
		t.Errorf("the server's page: %v", err)
	}
	for _, c := range []struct {
		v     *Viewer
		attrs []string // name, value, …
	}{
		{&Viewer{}, []string{"data-state", "loading", "data-embed", "false", "data-ready", "false"}},
		{&Viewer{opener: open.Opener{Status: open.Status{State: open.StateEmpty}}, page: pageFlags{mounted: true}},
			[]string{"data-state", "empty", "data-embed", "false", "data-ready", "true"}},
		{&Viewer{opener: open.Opener{Status: open.Status{State: open.StateLoading, Loading: "x.arrow"}, WarmUp: open.WarmUpDone}, page: pageFlags{mounted: true}},
			[]string{"data-state", "loading", "data-embed", "false", "data-ready", "true", "data-warm-up", "done"}},
		{&Viewer{opener: open.Opener{Status: open.Status{State: open.StateError, Loading: "x.arrow", ErrText: "no"}, WarmUp: open.WarmUpSkipped}, page: pageFlags{mounted: true}},
			[]string{"data-state", "error", "data-embed", "false", "data-ready", "true", "data-warm-up", "skipped"}},
		{&Viewer{opener: open.Opener{Status: open.Status{State: open.StateReady}, WarmUp: open.WarmUpFailed}, page: pageFlags{mounted: true}},
			[]string{"data-state", "ready", "data-embed", "false", "data-ready", "true", "data-warm-up", "failed"}},
	} {
		if err := app.Match(root(c.attrs...), c.v.Render()); err != nil {
			t.Errorf("%+v: %v", c.v.opener.Status, err)
		}
	}
}

// TestTooBig: a file too big to download whole says its size when known.
func TestTooBig(t *testing.T) {
	for length, want := range map[int64]string{-1: "it is more than 2.0 GiB:", 3 << 30: "it is 3.0 GiB:"} {
		if got := open.TooBig("https://x/a.arrow", length).Error(); !strings.Contains(got, want) || !strings.Contains(got, "https://x/a.arrow") {
			t.Errorf("length %d: %q, want it to say %q", length, got, want)
		}
	}
}
