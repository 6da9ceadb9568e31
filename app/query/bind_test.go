package query

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func bindCols() []Column {
	return []Column{
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}},
		{Name: "caption", Type: arrow.BinaryTypes.String},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "at", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "Mars/Olympus"}},
		{Name: "clock", Type: arrow.FixedWidthTypes.Time32s},
		{Name: "blob", Type: arrow.BinaryTypes.Binary},
		{Name: "emb", Type: arrow.BinaryTypes.Binary, Tensor: true, DimNames: []string{"c", "h", "w"}, NDim: 3},
		{Name: "raw", Type: arrow.BinaryTypes.Binary, Tensor: true},
		{Name: "img", Type: arrow.BinaryTypes.Binary, Image: true},
		{Name: "Mixed Case", Type: arrow.PrimitiveTypes.Int32},
		{Name: "dup", Type: arrow.PrimitiveTypes.Int32},
		{Name: "DUP", Type: arrow.PrimitiveTypes.Int32},
	}
}

func TestBind(t *testing.T) {
	for _, c := range []struct {
		q, want string
		needs   []string
	}{
		{"LABEL = 'cat' and Score > 0.9", "label = 'cat' and score > 0.9", []string{"label", "score"}},
		{`"mixed case" = 1`, `"Mixed Case" = 1`, []string{"Mixed Case"}},
		{"dup = 1 or DUP = 2", "dup = 1 or DUP = 2", []string{"dup", "DUP"}},
		{"dim(EMB, 'H') < 64 and mean(emb) > 0", "dim(emb, 'h') < 64 and mean(emb) > 0", []string{"emb"}},
		{"search('x') and id = 1", "search('x') and id = 1", []string{"label", "caption", "id"}},
		{"blob is null and emb is not null", "blob is null and emb is not null", []string{"blob", "emb"}},
		{"width(img) < 64 or dim(raw, 5) = 1", "width(img) < 64 or dim(raw, 5) = 1", []string{"img", "raw"}},
		{"day > '2024-01-01' and clock < '12:00'", "day > '2024-01-01' and clock < '12:00'", []string{"day", "clock"}},
	} {
		f, err := Compile(c.q, bindCols())
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if f.String() != c.want || !slices.Equal(f.Needs(), c.needs) {
			t.Errorf("%s: %q needs %q, want %q needs %q", c.q, f.String(), f.Needs(), c.want, c.needs)
		}
	}
	// Bind does not change the parsed tree.
	e, _ := Parse("SCORE > 1")
	if _, err := Bind(e, bindCols()); err != nil || e.String() != "SCORE > 1" {
		t.Errorf("Bind changed the tree: %s, %v", e, err)
	}
}

func TestBindErrors(t *testing.T) {
	for _, c := range []struct {
		q      string
		off, n int
		msg    string
	}{
		{"scroe > 1", 0, 5, `unknown column "scroe" (did you mean "score"?)`},
		{"xyzzy > 1", 0, 5, `unknown column "xyzzy"`},
		{"Dup = 1", 0, 3, `column "Dup" is ambiguous: "dup" or "DUP"`},
		{"score > 'high'", 8, 6, `expected a number to compare with score (float32), found the string 'high'`},
		{"label = 3", 8, 1, `expected a string in single quotes to compare with label (utf8), found the number 3`},
		{"id in (1, 'two')", 10, 5, `expected a number to compare with id (int64), found the string 'two'`},
		{"ok > true", 3, 1, "booleans compare only with =, != and in"},
		{"ok = 1", 5, 1, "expected true or false to compare with ok (bool), found the number 1"},
		{"score contains 'x'", 0, 5, "contains needs a string column; score is float32"},
		{"mean(emb) starts with 'x'", 0, 9, "starts with needs a string column; mean(emb) is a number"},
		{"blob = 'x'", 0, 4, "blob (binary) can only be tested with is null and is not null"},
		{"emb > 1", 0, 3, "emb is a tensor column: compare one of its statistics, such as mean(emb)"},
		{"img = 'x'", 0, 3, "img is an image column: compare one of its statistics, such as mean(img)"},
		{"mean(score) > 1", 0, 11, "mean() needs a tensor or image column; score is float32"},
		{"dim(emb, 'depth') = 1", 9, 7, "emb has no dimension 'depth' (its dimensions: c, h, w)"},
		{"dim(emb, 3) = 1", 9, 1, "emb has 3 dimensions: dim() takes 0 to 2"},
		{"dim(raw, 'h') = 1", 9, 3, "raw has no dimension names: give the dimension's number, dim(raw, 0)"},
		{"shape(emb) > [1]", 11, 1, "shape() compares only with =, != and in"},
		{"shape(emb) = 3", 13, 1, "expected a shape such as [3, 224, 224] to compare with shape(emb), found the number 3"},
		{"size(emb) = [3]", 12, 3, "expected a number to compare with size(emb), found the list [3]"},
		{"day > 'yesterday'", 6, 11, "expected a date such as '2024-01-31' or a time such as '2024-01-31 12:30:00' for day, found 'yesterday'"},
		{"day > 20240101", 6, 8, "expected a date or time in single quotes to compare with day (date32), found the number 20240101"},
		{"clock < '25:00'", 8, 7, "expected a time of day such as '12:30:00' for clock, found '25:00'"},
		{"at > '2024-01-01'", 0, 2, `unknown time zone "Mars/Olympus" of at`},
		{"id = 1 and score between 'a' and 2", 25, 3, "expected a number to compare with score (float32), found the string 'a'"},
	} {
		_, err := Compile(c.q, bindCols())
		checkError(t, c.q, err, Span{c.off, c.n}, c.msg)
	}
	noStrings := []Column{{Name: "x", Type: arrow.PrimitiveTypes.Int8}}
	if _, err := Compile("search('a')", noStrings); err == nil || err.Error() != "search() looks in string columns, and there are none at 0" {
		t.Errorf("search without strings: %v", err)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"score", "scroe", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"größe", "grösse", 2}, {"ab", "ba", 1}} {
		if d := editDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}
