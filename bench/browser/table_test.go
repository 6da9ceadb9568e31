package main

import "testing"

func TestMedianAndSpread(t *testing.T) {
	runs := []*tvResult{{FirstMs: 60}, {FirstStatus: "timeout"}, {FirstMs: 40}, {FirstMs: 50}, {FirstMs: 45}}
	if m := median(runs, tvFirst); m.FirstMs != 45 {
		t.Errorf("median of 60, 40, 50, 45 (and a timeout) = %v, want 45 (the lower middle)", m.FirstMs)
	}
	if got := median(runs[:3], tvFirst); got.FirstMs != 40 {
		t.Errorf("median of 60, 40 = %v, want 40", got.FirstMs)
	}
	if got := spread(runs, tvFirst); got != " (40–60)" {
		t.Errorf("spread = %q, want \" (40–60)\"", got)
	}
	if got := spread(runs[:2], tvFirst); got != "" {
		t.Errorf("spread of one good run = %q, want none", got)
	}
	failed := []*ajsResult{{Error: "NotReadableError"}, {Error: "NotReadableError", FailMs: 12}}
	if got := median(failed, arrowFirst); got != failed[1] {
		t.Errorf("median of failures = %+v, want the last run", got)
	}
	if median[tvResult](nil, tvFirst) != nil {
		t.Error("median of no runs is not nil")
	}
}
