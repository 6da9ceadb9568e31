package tzload

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// goZip is the zone database of the Go running the test: the file make
// wasm copies to web/tzdata.zip.
func goZip(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestParseGoDatabase reads every zone of Go's database and compares its
// bytes with archive/zip's reading of the same file.
func TestParseGoDatabase(t *testing.T) {
	b := goZip(t)
	db, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if db.Len() != len(zr.File) || db.Len() < 300 {
		t.Fatalf("%d zones, archive/zip reads %d", db.Len(), len(zr.File))
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		want, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.Zone(f.Name)
		if err != nil || got != string(want) {
			t.Fatalf("zone %s: %d bytes, %v; archive/zip reads %d bytes", f.Name, len(got), err, len(want))
		}
	}
	if _, err := db.Zone("Mars/Olympus_Mons"); err == nil || !strings.Contains(err.Error(), `no zone "Mars/Olympus_Mons"`) {
		t.Fatalf("unknown zone: %v", err)
	}
}

// TestZoneAsTimeReadsIt: a zone's data read by time.LoadLocationFromTZData
// gives the offsets and abbreviations of time.LoadLocation's, which reads the
// same database (ZONEINFO set to it).
func TestZoneAsTimeReadsIt(t *testing.T) {
	b := goZip(t)
	path := filepath.Join(t.TempDir(), "zoneinfo.zip")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ZONEINFO", path)
	db, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	instants := []time.Time{
		time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 15, 12, 0, 0, 0, time.UTC),
		time.Date(2024, 7, 15, 12, 0, 0, 0, time.UTC),
		time.Date(2100, 3, 31, 1, 30, 0, 0, time.UTC),
	}
	for _, name := range []string{"Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"} {
		data, err := db.Zone(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := time.LoadLocationFromTZData(name, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		want, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range instants {
			gn, go_ := at.In(got).Zone()
			wn, wo := at.In(want).Zone()
			if gn != wn || go_ != wo {
				t.Errorf("%s at %s: %s %d, time.LoadLocation: %s %d", name, at, gn, go_, wn, wo)
			}
		}
	}
}

func TestParseRefuses(t *testing.T) {
	good := goZip(t)
	var deflated bytes.Buffer
	zw := zip.NewWriter(&deflated)
	w, _ := zw.Create("Europe/Paris") // Deflate
	w.Write(bytes.Repeat([]byte("TZif"), 100))
	zw.Close()
	// The central directory's offset moved past its start.
	badOffset := bytes.Clone(good)
	badOffset[len(badOffset)-22+16]++
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "too short for a zip file"},
		{"not a zip", bytes.Repeat([]byte{'x'}, 100), "not a zip file"},
		{"truncated", good[:len(good)/2], "not a zip file"},
		{"compressed", deflated.Bytes(), `zone "Europe/Paris" is compressed (method 8)`},
		{"central directory moved", badOffset, "outside the file's 408125"},
	} {
		db, err := Parse(c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, %v; want an error with %q", c.name, db, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(goZip(f)[:2000])
	var small bytes.Buffer
	zw := zip.NewWriter(&small)
	w, _ := zw.CreateHeader(&zip.FileHeader{Name: "UTC", Method: zip.Store})
	w.Write([]byte("TZif2"))
	zw.Close()
	f.Add(small.Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := Parse(b)
		if err != nil {
			return
		}
		for name := range db.zones {
			if _, err := db.Zone(name); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestLoaderFetchesOnce: concurrent first lookups share one fetch, and
// later ones none.
func TestLoaderFetchesOnce(t *testing.T) {
	b := goZip(t)
	var fetches atomic.Int32
	l := &Loader{Fetch: func() ([]byte, error) {
		fetches.Add(1)
		return b, nil
	}}
	var wg sync.WaitGroup
	for _, name := range []string{"Europe/Paris", "Asia/Tokyo", "America/Sao_Paulo", "Europe/Paris"} {
		wg.Go(func() {
			data, err := l.Load(name)
			if err != nil || !strings.HasPrefix(data, "TZif") {
				t.Errorf("%s: %q..., %v", name, data[:min(len(data), 4)], err)
			}
		})
	}
	wg.Wait()
	if _, err := l.Load("Nowhere/Land"); err == nil {
		t.Error("an unknown zone loaded")
	}
	if n := fetches.Load(); n != 1 {
		t.Errorf("%d fetches, want 1", n)
	}
}

// TestLoaderOffsetsFetchNothing: an offset, or an empty name, is no zone's
// name: refused without fetching the database.
func TestLoaderOffsetsFetchNothing(t *testing.T) {
	l := &Loader{Fetch: func() ([]byte, error) {
		t.Error("fetched")
		return nil, errors.New("no")
	}}
	for _, name := range []string{"+05:30", "-08:00", "", "0", "/etc/passwd"} {
		if _, err := l.Load(name); err == nil || !strings.Contains(err.Error(), "is not the name of a time zone") {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// TestEveryZoneStartsWithALetter: what Load's check before a fetch relies on.
func TestEveryZoneStartsWithALetter(t *testing.T) {
	db, err := Parse(goZip(t))
	if err != nil {
		t.Fatal(err)
	}
	for name := range db.zones {
		if c := name[0]; !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			t.Errorf("zone %q", name)
		}
	}
}

// TestLoaderRetriesAfterFailure: a failed fetch is the lookup's error, not
// remembered; the next lookup fetches again.
func TestLoaderRetriesAfterFailure(t *testing.T) {
	b := goZip(t)
	offline := errors.New("offline")
	var calls int
	l := &Loader{Fetch: func() ([]byte, error) {
		calls++
		switch calls {
		case 1:
			return nil, offline
		case 2:
			return []byte("not a zip, an error page"), nil
		}
		return b, nil
	}}
	if _, err := l.Load("Europe/Paris"); !errors.Is(err, offline) || !strings.Contains(err.Error(), "fetching the time zone database") {
		t.Fatalf("first: %v", err)
	}
	if _, err := l.Load("Europe/Paris"); err == nil || !strings.Contains(err.Error(), "too short") && !strings.Contains(err.Error(), "not a zip") {
		t.Fatalf("second: %v", err)
	}
	if data, err := l.Load("Europe/Paris"); err != nil || !strings.HasPrefix(data, "TZif") {
		t.Fatalf("third: %v", err)
	}
	if calls != 3 {
		t.Fatalf("%d fetches, want 3", calls)
	}
}
