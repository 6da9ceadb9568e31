package browser

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tensorview/tensorview/app/decode"
)

// workerMeta is the footer as web/parquet-worker.js sends it (its
// footerMeta, as JSON): decode.ParquetMeta plus each row group's column
// chunk sizes, which readGuard needs.
type workerMeta struct {
	CreatedBy string      `json:"createdBy"`
	Version   int         `json:"version"`
	KeyValue  [][2]string `json:"keyValue"`
	RowGroups []struct {
		Rows         int64 `json:"rows"`
		Compressed   int64 `json:"compressed"`
		Uncompressed int64 `json:"uncompressed"`
		// Chunks are the compressed bytes (total_compressed_size) of its
		// column chunks, one per leaf column in schema order.
		Chunks []int64 `json:"chunks"`
		// Stats are the column chunks' statistics, as read by hyparquet's
		// footer parser (null each, or all, when unknown).
		Stats []*workerStats `json:"stats"`
	} `json:"rowGroups"`
	Columns []struct {
		Path   []string `json:"path"`
		Codecs []string `json:"codecs"`
	} `json:"columns"`
}

// workerStats are a column chunk's statistics as the worker sends them:
// values as text, of kind int, uint, float, string or bool ("" or null:
// none), dates' and timestamps' integers in their Parquet unit (d, ms, us,
// ns), Nulls the null_count.
type workerStats struct {
	Kind  *string `json:"kind"`
	Min   *string `json:"min"`
	Max   *string `json:"max"`
	Nulls *string `json:"nulls"`
	Unit  string  `json:"unit"`
}

// columnStats is s as decode takes it; values that do not parse as their
// kind are left out.
func (s *workerStats) columnStats() *decode.ColumnStats {
	if s == nil {
		return nil
	}
	out := &decode.ColumnStats{NullCount: -1, Unit: s.Unit}
	if s.Nulls != nil {
		if n, err := strconv.ParseInt(*s.Nulls, 10, 64); err == nil && n >= 0 {
			out.NullCount = n
		}
	}
	if s.Kind == nil || s.Min == nil || s.Max == nil {
		out.Unit = ""
		return out
	}
	parse := func(v string) any {
		switch *s.Kind {
		case "int":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				return n
			}
		case "uint":
			if n, err := strconv.ParseUint(v, 10, 64); err == nil {
				return n
			}
		case "float":
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				return x
			}
		case "string":
			return v
		case "bool":
			if b, err := strconv.ParseBool(v); err == nil {
				return b
			}
		}
		return nil
	}
	out.Min, out.Max = parse(*s.Min), parse(*s.Max)
	if out.Min == nil || out.Max == nil {
		out.Min, out.Max, out.Unit = nil, nil, ""
	}
	return out
}

// parseWorkerMeta reads the worker's footer JSON and checks that its row
// groups and columns agree (a chunk size for every leaf column, no
// negative sizes).
func parseWorkerMeta(text string) (*workerMeta, error) {
	var m workerMeta
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return nil, fmt.Errorf("the Parquet reader sent a footer that is not JSON: %w", err)
	}
	for i, g := range m.RowGroups {
		if len(g.Chunks) != len(m.Columns) {
			return nil, fmt.Errorf("row group %d has %d column chunks for %d leaf columns", i, len(g.Chunks), len(m.Columns))
		}
		if g.Stats != nil && len(g.Stats) != len(g.Chunks) {
			return nil, fmt.Errorf("row group %d has statistics for %d column chunks of %d", i, len(g.Stats), len(g.Chunks))
		}
		if g.Rows < 0 || g.Compressed < 0 || g.Uncompressed < 0 {
			return nil, fmt.Errorf("row group %d declares a negative size", i)
		}
	}
	for k, c := range m.Columns {
		if len(c.Path) == 0 {
			return nil, fmt.Errorf("leaf column %d has an empty path", k)
		}
	}
	return &m, nil
}

// decodeMeta is m as decode.OpenParquet takes it, with schema (the Arrow
// schema as a schema-only IPC stream).
func (m *workerMeta) decodeMeta(schema []byte) decode.ParquetMeta {
	out := decode.ParquetMeta{Schema: schema, CreatedBy: m.CreatedBy, Version: m.Version}
	for _, kv := range m.KeyValue {
		out.KeyValue = append(out.KeyValue, decode.KV{Key: kv[0], Value: kv[1]})
	}
	for _, g := range m.RowGroups {
		rg := decode.ParquetRowGroup{Rows: g.Rows, CompressedBytes: g.Compressed, UncompressedBytes: g.Uncompressed}
		for k, n := range g.Chunks {
			c := decode.ParquetChunk{CompressedBytes: n}
			if g.Stats != nil {
				c.Stats = g.Stats[k].columnStats()
			}
			rg.Chunks = append(rg.Chunks, c)
		}
		out.RowGroups = append(out.RowGroups, rg)
	}
	for _, c := range m.Columns {
		out.Columns = append(out.Columns, decode.ParquetColumn{Path: c.Path, Codecs: c.Codecs})
	}
	return out
}

// fields are the top-level field names in schema order: the first element
// of each leaf column's path, once (the Arrow schema a Parquet file is read
// as has one field per top-level Parquet field, by the same name).
func (m *workerMeta) fields() []string {
	var out []string
	for _, c := range m.Columns {
		if n := len(out); n == 0 || out[n-1] != c.Path[0] {
			out = append(out, c.Path[0])
		}
	}
	return out
}

// columnNames are the names parquet-wasm reads the top-level fields of
// index columns (increasing) by, nil for all of them.
func (m *workerMeta) columnNames(columns []int) ([]string, error) {
	if columns == nil {
		return nil, nil
	}
	fields := m.fields()
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		if seen[f] {
			return nil, fmt.Errorf("the file has two top-level columns named %q: they cannot be read one at a time", f)
		}
		seen[f] = true
	}
	names := make([]string, len(columns))
	for i, c := range columns {
		if c < 0 || c >= len(fields) {
			return nil, fmt.Errorf("no column %d: the file has %d", c, len(fields))
		}
		names[i] = fields[c]
	}
	return names, nil
}

// readGuard refuses a read of rows [offset, offset+limit) of row group rg,
// of the top-level columns names (nil: all), that would take more than
// budget bytes of memory in the Parquet reader, before it starts (its
// error does not name the row group: decode's error around it does):
//
//   - the column chunks' compressed bytes, which the reader may fetch
//     whole (it reads only a window's pages with a page index, and without
//     one a big chunk's pages up to the window's last row; this counts as
//     if it read them whole);
//   - the decoded rows, estimated as the chunks' share of the row group's
//     total_byte_size (uncompressed), times limit/rows.
func (m *workerMeta) readGuard(rg int, offset, limit int64, names []string, budget int64) error {
	if rg < 0 || rg >= len(m.RowGroups) {
		return fmt.Errorf("no row group %d: the file has %d", rg, len(m.RowGroups))
	}
	g := m.RowGroups[rg]
	if offset < 0 || limit < 0 || offset > g.Rows {
		return fmt.Errorf("rows %d to %d are outside row group %d's %d rows", offset, offset+limit, rg, g.Rows)
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var chunks, all int64
	for k, c := range m.Columns {
		all += g.Chunks[k]
		if names == nil || want[c.Path[0]] {
			chunks += g.Chunks[k]
		}
	}
	if chunks > budget {
		return fmt.Errorf("its column chunks to read hold %s (compressed), more than the cache budget (%s) allows; ?cache=<MiB> in the address raises it",
			decode.HumanBytes(chunks), decode.HumanBytes(budget))
	}
	if g.Rows > 0 && all > 0 {
		decoded := float64(g.Uncompressed) * float64(chunks) / float64(all) * float64(min(limit, g.Rows-offset)) / float64(g.Rows)
		if decoded > float64(budget) {
			return fmt.Errorf("%d rows of it decode to about %s, more than the cache budget (%s) allows; ?cache=<MiB> in the address raises it",
				min(limit, g.Rows-offset), decode.HumanBytes(int64(decoded)), decode.HumanBytes(budget))
		}
	}
	return nil
}
