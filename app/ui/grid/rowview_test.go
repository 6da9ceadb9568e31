//go:build !wasm

package grid

import (
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// TestRowStateOf: a row shows its cells once its row window is loaded or
// failed (the cells say the error), and why not otherwise.
func TestRowStateOf(t *testing.T) {
	for _, c := range []struct {
		located bool
		state   decode.WindowState
		want    rowState
	}{
		{false, decode.Loaded, rowIndexing},
		{false, decode.Unread, rowIndexing},
		{true, decode.Unread, rowLoading},
		{true, decode.Loading, rowLoading},
		{true, decode.Cancelled, rowCancelled},
		{true, decode.Loaded, rowShown},
		{true, decode.Failed, rowShown},
	} {
		if got := rowStateOf(c.located, c.state); got != c.want {
			t.Errorf("located %v, %v: %d, want %d", c.located, c.state, got, c.want)
		}
	}
}
