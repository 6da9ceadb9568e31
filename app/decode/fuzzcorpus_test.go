package decode

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tensorview/tensorview/internal/testkit"
)

// TestFuzzCorpusOpens opens every input of tensorext's FuzzRecordBatch
// corpus (malformed IPC files and streams, among them schemas whose vector
// lengths made arrow-go abort with a fatal out-of-memory) through the
// viewer's decode path: each opens or fails with an error, and every value
// (tensor, image) of what opens reads without a panic. testkit.Internal
// knows ErrPanic's text.
func TestFuzzCorpusOpens(t *testing.T) {
	if !testkit.Internal(fmt.Errorf("reading: %w", ErrPanic).Error()) {
		t.Fatal("testkit.Internal does not know ErrPanic's text")
	}
	paths, _ := filepath.Glob("../../tensorext/testdata/fuzz/FuzzRecordBatch/*")
	if len(paths) < 3 {
		t.Fatalf("only %d corpus files", len(paths))
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitN(string(raw), "\n", 3)
			if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
				t.Skip("not a []byte corpus entry") // other argument types are not files
			}
			lit := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")")
			s, err := strconv.Unquote(lit)
			if err != nil {
				t.Fatalf("corpus entry: %v", err)
			}
			data := []byte(s)
			f, err := OpenReader("fuzz", bytes.NewReader(data), int64(len(data)), Options{Budget: 1 << 20})
			if err != nil {
				if errors.Is(err, ErrPanic) {
					t.Logf("open: %v", err)
				}
				return
			}
			rows, _ := f.Rows()
			for r := int64(0); r < min(rows, 64); r++ {
				for c := range f.Fields() {
					if got := describeValue(f, r, c); testkit.Internal(got) {
						t.Errorf("row %d column %d: %s", r, c, got)
					}
				}
			}
		})
	}
}
