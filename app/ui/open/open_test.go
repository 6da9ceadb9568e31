package open

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
)

// TestReadOptions: only a file read by URL with HTTP Range (no Blob) is
// read by small row windows; a dropped file, and one downloaded whole from
// a server that ignores Range, read their small batches whole.
func TestReadOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  source
		want int64
	}{
		{"by URL", source{URL: "https://example.org/a.arrow"}, decode.RemoteRowWindow},
		{"dropped", source{Blob: app.Null()}, 0},
		{"downloaded whole", source{URL: "https://example.org/a.arrow", Blob: app.Null()}, 0},
	} {
		if got := readOptions(tc.src, 1<<20); got.RowWindow != tc.want || got.Budget != 1<<20 {
			t.Errorf("%s: %+v, want RowWindow %d and the budget", tc.name, got, tc.want)
		}
	}
}
