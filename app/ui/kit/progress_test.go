//go:build !wasm

package kit

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
)

// TestProgressRows: a progress in rows reads with thousands separators,
// as the row counts elsewhere on the page ("73 of 3,000 rows").
func TestProgressRows(t *testing.T) {
	p := &ProgressBar{Task: "query", Progress: session.Progress{Label: "Sorting", RowsDone: 16384, RowsTotal: 1000000, Rows: 1204}}
	html := app.HTMLString(p.Render())
	for _, want := range []string{" 16,384 of 1,000,000 rows ", "· 1,204 rows ", `data-rows-done="16384"`, `data-rows-total="1000000"`} {
		if !strings.Contains(html, want) {
			t.Errorf("progress HTML lacks %q:\n%s", want, html)
		}
	}
}
