package httpmeter

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestMeterCountsRangeResponses(t *testing.T) {
	var m Meter
	srv := httptest.NewServer(m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "f", time.Time{}, strings.NewReader("0123456789"))
	})))
	defer srv.Close()
	get := func(rng string) string {
		req, _ := http.NewRequest("GET", srv.URL, nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if got := get("bytes=2-4"); got != "234" {
		t.Fatalf("range body %q", got)
	}
	if got := get(""); got != "0123456789" {
		t.Fatalf("body %q", got)
	}
	if b, r := m.Read(); b != 13 || r != 2 {
		t.Errorf("read %d bytes in %d requests, want 13 in 2", b, r)
	}
	m.Reset()
	if b, r := m.Read(); b != 0 || r != 0 {
		t.Errorf("after reset %d, %d", b, r)
	}
}
