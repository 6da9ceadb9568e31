//go:build !wasm

package grid

import "testing"

// TestFirstScreenSteps: a first screen goes reading → painting → shown,
// each step once; a step reported for an earlier screen (a file shown
// before, a result replaced) moves nothing.
func TestFirstScreenSteps(t *testing.T) {
	var s firstScreen
	if s.step.String() != "reading" {
		t.Fatalf("a new table's first screen is %q, want reading", s.step)
	}
	gen := s.restart()
	if s.painted(gen) {
		t.Error("painted before its rows were in")
	}
	if !s.rowsIn(gen) || s.step.String() != "painting" {
		t.Fatalf("rowsIn: step %q, want painting", s.step)
	}
	if s.rowsIn(gen) {
		t.Error("rowsIn moved the screen on twice")
	}
	if !s.painted(gen) || s.step.String() != "shown" {
		t.Fatalf("painted: step %q, want shown", s.step)
	}
	if s.painted(gen) || s.rowsIn(gen) {
		t.Error("a shown screen moved on again")
	}

	// Another file while the first's rows are read: the first's reports
	// are dropped, the second's count.
	old := s.restart()
	cur := s.restart()
	if s.rowsIn(old) || s.step != screenReading {
		t.Errorf("an earlier screen's rows moved the current one to %q", s.step)
	}
	if !s.rowsIn(cur) {
		t.Fatal("the current screen's rows did not move it on")
	}
	if s.painted(old) || s.step != screenPainting {
		t.Errorf("an earlier screen's paint moved the current one to %q", s.step)
	}
	if !s.painted(cur) {
		t.Error("the current screen's paint did not end it")
	}
}
