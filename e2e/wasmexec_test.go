//go:build !wasm

package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/tensorview/tensorview/app/site"
)

// TestWasmExecMatchesGoApp checks the committed wasm_exec.js is the one
// go-app serves (it embeds the Go toolchain's copy).
func TestWasmExecMatchesGoApp(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	srv := httptest.NewServer(site.NewHandler("", "../web"))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/wasm_exec.js")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	served, _ := io.ReadAll(resp.Body)
	committed, err := os.ReadFile("../wasm_exec.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(served, committed) {
		t.Fatalf("wasm_exec.js (%d bytes) differs from go-app's (%d bytes): copy $(go env GOROOT)/lib/wasm/wasm_exec.js", len(committed), len(served))
	}
}
