package query

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestStringLiteralRoundTrip(t *testing.T) {
	for _, s := range []string{"", "cat", "it's", "''", "'", "a''b'", `"x"`, "naïve 'quoted' \\ text", "line\nbreak"} {
		lit := StringLiteral(s)
		v, err := ParseValue(lit)
		if err != nil || v.Kind != LitString || v.Text != s {
			t.Errorf("StringLiteral(%q) = %s reads back as %+v, %v", s, lit, v, err)
		}
	}
	if got := StringLiteral("it's"); got != "'it''s'" {
		t.Errorf("StringLiteral(it's) = %s", got)
	}
}

func TestParseValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Literal
	}{
		{"0.25", Literal{Kind: LitNumber, Text: "0.25"}},
		{" -3E2 ", Literal{Kind: LitNumber, Text: "-3e2"}},
		{"true", Literal{Kind: LitBool, Bool: true}},
		{"'a b'", Literal{Kind: LitString, Text: "a b"}},
	} {
		got, err := ParseValue(c.in)
		if err != nil || got.Kind != c.want.Kind || got.Text != c.want.Text || got.Bool != c.want.Bool {
			t.Errorf("ParseValue(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "abc", "1 2", "1.2.3", "'open", "null", "- x"} {
		if v, err := ParseValue(bad); err == nil {
			t.Errorf("ParseValue(%q) = %+v, want an error", bad, v)
		}
	}
}

func TestValueLiteral(t *testing.T) {
	cols := []Column{
		{Name: "label", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}},
		{Name: "ok", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "score", Type: arrow.PrimitiveTypes.Float32},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "emb", Type: arrow.PrimitiveTypes.Float32, Tensor: true},
	}
	for _, c := range []struct {
		x    Operand
		text string
		want string
	}{
		{Operand{Column: "label"}, "it's", "'it''s'"},
		{Operand{Column: "ok"}, "false", "false"},
		{Operand{Column: "score"}, "1.5E-3", "1.5e-3"},
		{Operand{Column: "day"}, "2024-02-29", "'2024-02-29'"},
		{Operand{Func: "mean", Column: "emb"}, "-0.5", "-0.5"},
	} {
		if got := ValueLiteral(c.x, cols, c.text).String(); got != c.want {
			t.Errorf("ValueLiteral(%s, %q) = %s, want %s", c.x, c.text, got, c.want)
		}
	}
}

func TestWithTerm(t *testing.T) {
	label := Operand{Column: "label"}
	in := &In{X: label, Values: []Literal{{Kind: LitString, Text: "cat"}, {Kind: LitString, Text: "it's"}}}
	score := Operand{Column: "score"}
	between := &Between{X: score, Lo: Literal{Kind: LitNumber, Text: "0.1"}, Hi: Literal{Kind: LitNumber, Text: "0.9"}}
	mean := Operand{Func: "mean", Column: "my col"}
	meanTerm := &Compare{X: mean, Op: OpGe, Value: Literal{Kind: LitNumber, Text: "2"}}
	for _, c := range []struct {
		q    string
		x    Operand
		term Expr
		want string
	}{
		{"", label, in, "label in ('cat', 'it''s')"},
		{"  ", score, between, "score between 0.1 and 0.9"},
		{"score > 0.5", label, in, "score > 0.5 and label in ('cat', 'it''s')"},
		// The term of the same column is replaced, wherever it is.
		{"label = 'dog' and score > 0.5", label, in, "score > 0.5 and label in ('cat', 'it''s')"},
		{"LABEL in ('x') and id < 3", label, in, "id < 3 and label in ('cat', 'it''s')"},
		{"score > 0.5 and score < 0.7 and label = 'x'", score, between, "label = 'x' and score between 0.1 and 0.9"},
		// Other tests of the column stay; an or is kept whole.
		{"label is not null and label contains 'a'", label, in, "label is not null and label contains 'a' and label in ('cat', 'it''s')"},
		{"label = 'a' or score > 1", label, in, "(label = 'a' or score > 1) and label in ('cat', 'it''s')"},
		{"not (label = 'a')", label, in, "not (label = 'a') and label in ('cat', 'it''s')"},
		// A nil term removes.
		{"label in ('a') and score > 1", label, nil, "score > 1"},
		{"label in ('a')", label, nil, ""},
		// Tensor functions, quoted names.
		{`mean("my col") < 1 and max("my col") > 2`, mean, meanTerm, `max("my col") > 2 and mean("my col") >= 2`},
		{`"and" = 1`, Operand{Column: "and"}, &Compare{X: Operand{Column: "and"}, Value: Literal{Kind: LitNumber, Text: "2"}}, `"and" = 2`},
	} {
		got, err := WithTerm(c.q, c.x, c.term)
		if err != nil || got != c.want {
			t.Errorf("WithTerm(%q, %s) = %q, %v; want %q", c.q, c.x, got, err, c.want)
			continue
		}
		if got != "" {
			if _, err := Parse(got); err != nil {
				t.Errorf("WithTerm(%q) = %q does not parse: %v", c.q, got, err)
			}
		}
	}
	if _, err := WithTerm("label = ", label, in); err == nil {
		t.Error("WithTerm of a query that does not parse: no error")
	}
}

func TestClassOf(t *testing.T) {
	cols := []Column{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "f", Type: arrow.FixedWidthTypes.Float16},
		{Name: "s", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.LargeString}},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us},
		{Name: "img", Type: arrow.BinaryTypes.Binary, Image: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int8)},
	}
	for _, c := range []struct {
		x    Operand
		want ValueClass
	}{
		{Operand{Column: "i"}, ClassNumber}, {Operand{Column: "f"}, ClassFloat}, {Operand{Column: "s"}, ClassText},
		{Operand{Column: "b"}, ClassBool}, {Operand{Column: "ts"}, ClassTime}, {Operand{Column: "img"}, ClassOther},
		{Operand{Func: "width", Column: "img"}, ClassFloat}, {Operand{Column: "l"}, ClassOther}, {Operand{Column: "nope"}, ClassOther},
	} {
		if got := ClassOf(c.x, cols); got != c.want {
			t.Errorf("ClassOf(%s) = %d, want %d", c.x, got, c.want)
		}
	}
}
