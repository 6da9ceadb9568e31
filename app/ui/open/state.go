package open

import (
	"net/url"
	"strconv"

	"github.com/tensorview/tensorview/app/decode"
)

// The Viewer's page state in plain Go (no browser): what the page says
// about the file being opened, the work under way on the file shown, and
// how the warm-up ended. Render draws it; the values the page's attributes
// carry are the String of these types. native tests: state_test.go.

// viewState is the page's state, as the root's data-state attribute says.
type viewState int

const (
	// StateStarting: before OnPreRender or OnMount's first update
	// (drawn as stateLoading).
	StateStarting viewState = iota
	StateEmpty              // no file asked for
	StateLoading            // a file is being read
	StateReady              // a file is shown
	StateError              // a file could not be opened (one may still be shown)
)

// Drawn is the state the page shows: a page that has not started yet
// says it is loading.
func (s viewState) Drawn() viewState {
	if s == StateStarting {
		return StateLoading
	}
	return s
}

// String is the state's data-state value ("starting" is never drawn).
func (s viewState) String() string {
	switch s {
	case StateEmpty:
		return "empty"
	case StateLoading:
		return "loading"
	case StateReady:
		return "ready"
	case StateError:
		return "error"
	}
	return "starting"
}

// Status is the page's state and what it says about the file asked for.
type Status struct {
	State   viewState
	Loading string // name of the file being read (or that could not be)
	Phase   string // what opening it waits for, when not its bytes ("Loading the Parquet reader…")
	ErrText string // why it could not be opened
}

// Reading: the file name is being read from now on.
func (s *Status) Reading(name string) {
	s.State, s.Loading, s.Phase, s.ErrText = StateLoading, name, "", ""
}

// Failed: a file could not be opened, for reason.
func (s *Status) Failed(reason string) {
	s.State, s.ErrText = StateError, reason
}

// FailedOn: the file name could not be opened, for reason.
func (s *Status) FailedOn(name, reason string) {
	s.State, s.Loading, s.ErrText = StateError, name, reason
}

// LoadingText is the "Reading …" line, "" when the page reads no file.
func (s Status) LoadingText() string {
	switch {
	case s.State.Drawn() != StateLoading || s.Loading == "":
		return ""
	case s.Phase != "":
		return s.Phase
	}
	return "Reading " + s.Loading + "…"
}

// AlertTitle heads the alert of errText.
func (s Status) AlertTitle() string {
	what := "this file"
	if s.Loading != "" {
		what = s.Loading
	}
	return "Cannot open " + what + ". "
}

// task is what the progress bar of the Viewer measures, as its data-task
// attribute says.
type task int

const (
	TaskNone     task = iota
	TaskIndex         // reading the record batch headers of the file shown
	TaskDownload      // downloading a file whole (its server ignores Range)
)

// String is the task's data-task value.
func (t task) String() string {
	switch t {
	case TaskIndex:
		return "index"
	case TaskDownload:
		return "download"
	}
	return ""
}

// WarmUpResult is how the warm-up (WarmUp) ended, as the page's
// data-warm-up attribute says: its file's view was rendered (and removed),
// its file did not open (nothing shown), or a file was chosen before it
// ran.
type WarmUpResult int

const (
	WarmUpPending WarmUpResult = iota // not ended: it runs once, on the empty page
	WarmUpDone
	WarmUpFailed
	WarmUpSkipped
)

// String is the result's data-warm-up value ("" while it runs).
func (w WarmUpResult) String() string {
	switch w {
	case WarmUpDone:
		return "done"
	case WarmUpFailed:
		return "failed"
	case WarmUpSkipped:
		return "skipped"
	}
	return ""
}

// CacheBudget is the cache budget the page's query asks for (cache=<MiB>),
// else decode.DefaultBudget.
func CacheBudget(query url.Values) int64 {
	if mib, err := strconv.ParseFloat(query.Get("cache"), 64); err == nil && mib > 0 {
		return int64(mib * (1 << 20))
	}
	return decode.DefaultBudget
}
