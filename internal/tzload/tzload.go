// Package tzload gives Go's time package its zone database at run time,
// fetched the first time a named zone is looked up, instead of embedded in
// the page's wasm (time/tzdata: 0.41 MB raw, about 59 kB of brotli 11).
//
// A Loader is what time.LoadLocation falls back on once the system's zone
// directories failed (a browser has none): Load(name) returns the zone's
// TZif data from the database, fetching and indexing it on the first call
// and blocking that caller until then. The database is the zip of
// $GOROOT/lib/time/zoneinfo.zip, the same bytes time/tzdata embeds (files
// stored, not compressed), which make wasm copies into web/tzdata.zip.
package tzload

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// DB is a zone database read from a zip file: zone names ("Europe/Paris")
// to their TZif data.
type DB struct {
	data  []byte
	zones map[string][2]int // name -> [start, end) of its data in data
}

// Parse reads the central directory of zip (the whole file, as
// zoneinfo.zip), keeping data. Every file must be stored (method 0), as Go
// writes the database; an entry out of bounds, a compressed one or a file
// that is not a zip is an error naming what is wrong.
func Parse(zip []byte) (*DB, error) {
	const endLen = 22 // end of central directory record, no comment
	if len(zip) < endLen {
		return nil, fmt.Errorf("tzload: %d bytes, too short for a zip file", len(zip))
	}
	end := zip[len(zip)-endLen:]
	if binary.LittleEndian.Uint32(end) != 0x06054b50 {
		return nil, errors.New("tzload: not a zip file (no end of central directory record at its end)")
	}
	n := int(binary.LittleEndian.Uint16(end[10:]))
	size := int(binary.LittleEndian.Uint32(end[12:]))
	off := int(binary.LittleEndian.Uint32(end[16:]))
	if off < 0 || size < 0 || off > len(zip)-endLen || size > len(zip)-endLen-off {
		return nil, fmt.Errorf("tzload: central directory at %d, %d bytes, outside the file's %d", off, size, len(zip))
	}
	db := &DB{data: zip, zones: make(map[string][2]int, n)}
	dir := zip[off : off+size]
	for i := range n {
		const headLen = 46
		if len(dir) < headLen || binary.LittleEndian.Uint32(dir) != 0x02014b50 {
			return nil, fmt.Errorf("tzload: central directory entry %d of %d is truncated or not one", i, n)
		}
		method := binary.LittleEndian.Uint16(dir[10:])
		csize := int(binary.LittleEndian.Uint32(dir[20:]))
		usize := int(binary.LittleEndian.Uint32(dir[24:]))
		nameLen := int(binary.LittleEndian.Uint16(dir[28:]))
		extraLen := int(binary.LittleEndian.Uint16(dir[30:]))
		commentLen := int(binary.LittleEndian.Uint16(dir[32:]))
		local := int(binary.LittleEndian.Uint32(dir[42:]))
		if headLen+nameLen+extraLen+commentLen > len(dir) {
			return nil, fmt.Errorf("tzload: central directory entry %d of %d is truncated", i, n)
		}
		name := string(dir[headLen : headLen+nameLen])
		dir = dir[headLen+nameLen+extraLen+commentLen:]
		if method != 0 || csize != usize {
			return nil, fmt.Errorf("tzload: zone %q is compressed (method %d), not stored", name, method)
		}
		// The local header: 30 bytes, then its own name and extra field.
		if local < 0 || local > off-30 || binary.LittleEndian.Uint32(zip[local:]) != 0x04034b50 {
			return nil, fmt.Errorf("tzload: zone %q: no local header at %d", name, local)
		}
		start := local + 30 + int(binary.LittleEndian.Uint16(zip[local+26:])) + int(binary.LittleEndian.Uint16(zip[local+28:]))
		if start > off || usize > off-start {
			return nil, fmt.Errorf("tzload: zone %q: %d bytes at %d, outside the file's data", name, usize, start)
		}
		db.zones[name] = [2]int{start, start + usize}
	}
	return db, nil
}

// Len is the number of files (zones) in the database.
func (db *DB) Len() int { return len(db.zones) }

// Zone returns the TZif data of the zone name, or an error when the
// database has none by that name.
func (db *DB) Zone(name string) (string, error) {
	r, ok := db.zones[name]
	if !ok {
		return "", fmt.Errorf("tzload: no zone %q in the time zone database", name)
	}
	return string(db.data[r[0]:r[1]]), nil
}

// Loader fetches the database once, when first asked for a zone.
type Loader struct {
	// Fetch returns the database's zip file (web/tzdata.zip in the page:
	// FetchURL, which bounds its wait).
	Fetch func() ([]byte, error)

	mu sync.Mutex
	db *DB
}

// Load returns the TZif data of the zone name (the signature time's
// registerLoadFromEmbeddedTZData takes). The first call fetches and parses
// the database, blocking its caller and any other until done; a failed
// fetch is returned as the error and tried again by the next call. A name
// that does not start with an ASCII letter, as no zone's does (an offset
// such as "+05:30", which arrow-go's TimestampType.GetZone tries as a name
// first), is an error without a fetch.
func (l *Loader) Load(name string) (string, error) {
	if name == "" || !('A' <= name[0] && name[0] <= 'Z' || 'a' <= name[0] && name[0] <= 'z') {
		return "", fmt.Errorf("tzload: %q is not the name of a time zone", name)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db == nil {
		zip, err := l.Fetch()
		if err != nil {
			return "", fmt.Errorf("tzload: fetching the time zone database: %w", err)
		}
		db, err := Parse(zip)
		if err != nil {
			return "", err
		}
		l.db = db
	}
	return l.db.Zone(name)
}
