package ui

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
	// stateStarting: before OnPreRender or OnMount's first update
	// (drawn as stateLoading).
	stateStarting viewState = iota
	stateEmpty              // no file asked for
	stateLoading            // a file is being read
	stateReady              // a file is shown
	stateError              // a file could not be opened (one may still be shown)
)

// drawn is the state the page shows: a page that has not started yet
// says it is loading.
func (s viewState) drawn() viewState {
	if s == stateStarting {
		return stateLoading
	}
	return s
}

// String is the state's data-state value ("starting" is never drawn).
func (s viewState) String() string {
	switch s {
	case stateEmpty:
		return "empty"
	case stateLoading:
		return "loading"
	case stateReady:
		return "ready"
	case stateError:
		return "error"
	}
	return "starting"
}

// status is the page's state and what it says about the file asked for.
type status struct {
	state   viewState
	loading string // name of the file being read (or that could not be)
	phase   string // what opening it waits for, when not its bytes ("Loading the Parquet reader…")
	errText string // why it could not be opened
}

// reading: the file name is being read from now on.
func (s *status) reading(name string) {
	s.state, s.loading, s.phase, s.errText = stateLoading, name, "", ""
}

// failed: a file could not be opened, for reason.
func (s *status) failed(reason string) {
	s.state, s.errText = stateError, reason
}

// failedOn: the file name could not be opened, for reason.
func (s *status) failedOn(name, reason string) {
	s.state, s.loading, s.errText = stateError, name, reason
}

// loadingText is the "Reading …" line, "" when the page reads no file.
func (s status) loadingText() string {
	switch {
	case s.state.drawn() != stateLoading || s.loading == "":
		return ""
	case s.phase != "":
		return s.phase
	}
	return "Reading " + s.loading + "…"
}

// alertTitle heads the alert of errText.
func (s status) alertTitle() string {
	what := "this file"
	if s.loading != "" {
		what = s.loading
	}
	return "Cannot open " + what + ". "
}

// task is what the progress bar of the Viewer measures, as its data-task
// attribute says.
type task int

const (
	taskNone     task = iota
	taskIndex         // reading the record batch headers of the file shown
	taskDownload      // downloading a file whole (its server ignores Range)
)

// String is the task's data-task value.
func (t task) String() string {
	switch t {
	case taskIndex:
		return "index"
	case taskDownload:
		return "download"
	}
	return ""
}

// warmUpResult is how the warm-up (WarmUp) ended, as the page's
// data-warm-up attribute says: its file's view was rendered (and removed),
// its file did not open (nothing shown), or a file was chosen before it
// ran.
type warmUpResult int

const (
	warmUpPending warmUpResult = iota // not ended: it runs once, on the empty page
	warmUpDone
	warmUpFailed
	warmUpSkipped
)

// String is the result's data-warm-up value ("" while it runs).
func (w warmUpResult) String() string {
	switch w {
	case warmUpDone:
		return "done"
	case warmUpFailed:
		return "failed"
	case warmUpSkipped:
		return "skipped"
	}
	return ""
}

// cacheBudget is the cache budget the page's query asks for (cache=<MiB>),
// else decode.DefaultBudget.
func cacheBudget(query url.Values) int64 {
	if mib, err := strconv.ParseFloat(query.Get("cache"), 64); err == nil && mib > 0 {
		return int64(mib * (1 << 20))
	}
	return decode.DefaultBudget
}
