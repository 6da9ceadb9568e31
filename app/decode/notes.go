package decode

import (
	"slices"
	"sync"
)

// notes are what a File learns about itself after it opens, kept under
// their own lock and handed out as copies: warnings, and the first error
// found in each column of the record batches read.
type notes struct {
	mu       sync.Mutex
	warnings []string
	colErr   map[int]string
}

// warn adds a warning.
func (n *notes) warn(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.warnings = append(n.warnings, msg)
}

// list returns a copy of the warnings, oldest first.
func (n *notes) list() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.warnings)
}

// columnErr records the error found in column k, unless one was already.
func (n *notes) columnErr(k int, msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.colErr[k]; ok {
		return
	}
	if n.colErr == nil {
		n.colErr = map[int]string{}
	}
	n.colErr[k] = msg
}

// fields returns a copy of the fields described at open, each with the
// error found in its column when it had none of its own.
func (n *notes) fields(described []FieldInfo) []FieldInfo {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]FieldInfo, len(described))
	for k, fld := range described {
		out[k] = fld.clone()
		if out[k].Err == "" {
			out[k].Err = n.colErr[k]
		}
	}
	return out
}
