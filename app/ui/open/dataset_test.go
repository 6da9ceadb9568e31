package open

import (
	"testing"

	"github.com/tensorview/tensorview/app/decode"
)

// TestSkippedText: the warning names the files a dataset left out, one or
// many, the first 8.
func TestSkippedText(t *testing.T) {
	for _, tc := range []struct {
		skipped []string
		want    string
	}{
		{[]string{"d/notes.txt"}, "1 file skipped (not Arrow or Parquet by its name, or unreadable): d/notes.txt"},
		{[]string{"a.txt", "b.csv"}, "2 files skipped (not Arrow or Parquet by their names, or unreadable): a.txt, b.csv"},
		{[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "9 files skipped (not Arrow or Parquet by their names, or unreadable): 1, 2, 3, 4, 5, 6, 7, 8, …"},
	} {
		if got := skippedText(tc.skipped); got != tc.want {
			t.Errorf("skippedText(%q) = %q, want %q", tc.skipped, got, tc.want)
		}
	}
}

// TestShardFormats: a dataset's formats are those of its files open, each
// once, in order; the first file's while none is.
func TestShardFormats(t *testing.T) {
	pq, file, stream := &decode.File{Format: decode.Parquet}, &decode.File{Format: decode.IPCFile}, &decode.File{Format: decode.IPCStream}
	for _, tc := range []struct {
		files []*decode.File
		want  string
	}{
		{[]*decode.File{nil, nil}, "Parquet"},
		{[]*decode.File{pq, nil, pq}, "Parquet"},
		{[]*decode.File{pq, file, stream, file}, "Parquet, Arrow IPC file, Arrow IPC stream"},
		{[]*decode.File{stream, nil, pq}, "Arrow IPC stream, Parquet"},
	} {
		shards := make([]decode.ShardInfo, len(tc.files))
		for i, f := range tc.files {
			shards[i].File = f
		}
		if got := ShardFormats(shards, decode.Parquet); got != tc.want {
			t.Errorf("shardFormats(%v) = %q, want %q", tc.files, got, tc.want)
		}
	}
}

// TestDatasetName: a dataset of files is named after the folder they all
// are in, else its one file, else their count.
func TestDatasetName(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  string
	}{
		{[]string{"a.parquet", "b.parquet"}, "2 files"},
		{[]string{"d/a.parquet", "d/b.parquet"}, "d"},
		{[]string{"d/train/a.parquet", "d/test/b.parquet", "d/c.arrow"}, "d"},
		{[]string{"d/train/a.parquet", "d/train/b.parquet"}, "d/train"},
		{[]string{"d/a.parquet", "e/b.parquet"}, "2 files"},
		{[]string{"x.parquet"}, "x.parquet"},
		{[]string{"d/x.parquet"}, "d"},
	} {
		if got := datasetName(tc.names); got != tc.want {
			t.Errorf("datasetName(%q) = %q, want %q", tc.names, got, tc.want)
		}
	}
}
