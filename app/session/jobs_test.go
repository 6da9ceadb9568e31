package session

import "testing"

// TestJobs: a job is live from Start until Stop, which cancels its
// context; ids are never reused, and stopping twice or the zero id does
// nothing.
func TestJobs(t *testing.T) {
	var j Jobs
	if j.Live(0) || j.Running() != 0 {
		t.Fatal("the zero job is live")
	}
	a, actx := j.Start()
	b, bctx := j.Start()
	if a == b || a == 0 || !j.Live(a) || !j.Live(b) || j.Running() != 2 {
		t.Fatalf("jobs %d %d: not both live", a, b)
	}
	j.Stop(a)
	if j.Live(a) || actx.Err() == nil || !j.Live(b) || bctx.Err() != nil {
		t.Error("stopping a: a still live or not cancelled, or b stopped")
	}
	j.Stop(a)
	j.Stop(0)
	if c, _ := j.Start(); c == a || c == b {
		t.Errorf("id %d reused", c)
	}
}
