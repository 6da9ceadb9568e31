package query

import (
	"errors"
	"testing"
)

func TestParseValid(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"label = 'cat' and score > 0.9", "label = 'cat' and score > 0.9"},
		{"LABEL='cat'AND score>0.9", "LABEL = 'cat' and score > 0.9"},
		{"a = 1 or b = 2 and c = 3", "a = 1 or b = 2 and c = 3"},
		{"(a = 1 or b = 2) and c = 3", "(a = 1 or b = 2) and c = 3"},
		{"a = 1 and (b = 2 and c = 3)", "a = 1 and b = 2 and c = 3"},
		{"((a = 1))", "a = 1"},
		{"a = 1 or (b = 2 or c = 3)", "a = 1 or b = 2 or c = 3"},
		{"not a = 1 and b = 2", "not (a = 1) and b = 2"},
		{"not not a = 1", "not not (a = 1)"},
		{"NOT (a = 1 or b = 2)", "not (a = 1 or b = 2)"},
		{"x <> 3", "x != 3"},
		{"x != -3", "x != -3"},
		{"x >= - 2.5E-3", "x >= -2.5e-3"},
		{"x <= .5", "x <= .5"},
		{"x < 1e10", "x < 1e10"},
		{"x between -1 and 2", "x between -1 and 2"},
		{"x not between 1 and 2 and y = 1", "x not between 1 and 2 and y = 1"},
		{"label in ('cat', 'dog')", "label in ('cat', 'dog')"},
		{"n not in (1,2,3)", "n not in (1, 2, 3)"},
		{"x is null", "x is null"},
		{"x IS NOT NULL", "x is not null"},
		{"caption contains 'Dog'", "caption contains 'Dog'"},
		{"caption not contains 'it''s'", "caption not contains 'it''s'"},
		{"caption starts with 'a'", "caption starts with 'a'"},
		{"caption NOT STARTS WITH ''", "caption not starts with ''"},
		{"flag = TRUE or flag = false", "flag = true or flag = false"},
		{"ts > '2024-01-31 12:00:00'", "ts > '2024-01-31 12:00:00'"},
		{"shape(x) = [3, 224,224]", "shape(x) = [3, 224, 224]"},
		{"shape(x) in ([], [-1])", "shape(x) in ([], [-1])"},
		{"MEAN(emb) > 0.5 and nan(pred) > 0", "mean(emb) > 0.5 and nan(pred) > 0"},
		{"dim(image, 'height') < 64", "dim(image, 'height') < 64"},
		{"dim(image,0)<64", "dim(image, 0) < 64"},
		{"width(img) >= 10 or height(img) <= 5", "width(img) >= 10 or height(img) <= 5"},
		{"min(x) < 0 or max(x) > 1 or std(x) = 0 or size(x) = 4", "min(x) < 0 or max(x) > 1 or std(x) = 0 or size(x) = 4"},
		{"search('dog')", "search('dog')"},
		{"Search('dog') and not search('cat')", "search('dog') and not search('cat')"},
		{`"my col" = 1`, `"my col" = 1`},
		{`"and" = 1`, `"and" = 1`},
		{`"say ""hi""" = 'x'`, `"say ""hi""" = 'x'`},
		{`"plain" = 1`, "plain = 1"},
		{`mean("my emb") > 0`, `mean("my emb") > 0`},
		{"größe > 1", "größe > 1"},
		{"min = 1", "min = 1"},
		{"search = 'x'", "search = 'x'"},
		{"_x1 = 1", "_x1 = 1"},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.want {
			t.Errorf("Parse(%q).String() = %q, want %q", c.in, got, c.want)
			continue
		}
		e2, err := Parse(c.want)
		if err != nil || e2.String() != c.want {
			t.Errorf("round trip of %q: %v, %v", c.want, e2, err)
		}
	}
}

func TestParseInvalid(t *testing.T) {
	for _, c := range []struct {
		in      string
		off, n  int
		wantMsg string
	}{
		{"", 0, 0, "empty query"},
		{"score >", 7, 0, "expected a value after '>'"},
		{"score > and x = 1", 8, 3, `expected a value after '>', found "and"`},
		{"score", 5, 0, "expected a comparison (=, !=, <, <=, >, >=, between, in, is null, contains, starts with) after \"score\""},
		{"a = 1 b = 2", 6, 1, `expected 'and', 'or' or the end of the query after the number 1, found "b"`},
		{"(a = 1", 6, 0, "expected ')' after the number 1"},
		{"a = 1)", 5, 1, "unmatched ')'"},
		{"a = 'cat", 4, 4, "unterminated string: the closing ' is missing"},
		{`"cat = 1`, 0, 8, `unterminated column name: the closing " is missing`},
		{`"" = 1`, 0, 2, "empty column name"},
		{"a ! 1", 2, 1, "unexpected '!': did you mean '!='?"},
		{"a = #", 4, 1, "unexpected character '#'"},
		{"a = 1x", 4, 2, "malformed number 1x"},
		{"a = 1.2.3", 4, 5, "malformed number 1.2.3"},
		{"a = 1e", 4, 2, "expected the digits of the exponent of 1e"},
		{"a = null", 4, 4, "null is no value: write 'is null' or 'is not null'"},
		{"a is 1", 5, 1, "expected 'null' or 'not null' after 'is', found the number 1"},
		{"a is not", 8, 0, "expected 'null' after 'not'"},
		{"a not = 1", 6, 1, "expected 'between', 'in', 'contains' or 'starts with' after 'not', found '='"},
		{"a between 1", 11, 0, "expected 'and' and the upper bound after the number 1"},
		{"a between 1 or 2", 12, 2, `expected 'and' and the upper bound after the number 1, found "or"`},
		{"a in 1", 5, 1, "expected '(' and a list of values after 'in', found the number 1"},
		{"a in (1 2)", 8, 1, "expected ',' or ')' after the number 1, found the number 2"},
		{"a in ()", 6, 1, "expected a value after '(', found ')'"},
		{"a contains 1", 11, 1, "expected a string in single quotes after 'contains', found the number 1"},
		{"a starts 'x'", 9, 3, "expected 'with' after 'starts', found the string 'x'"},
		{"and = 1", 0, 3, `expected a column name, found the keyword "and" (a column of that name is written in double quotes)`},
		{"= 1", 0, 1, "expected a column name or function, found '='"},
		{"foo(x) = 1", 0, 3, `unknown function "foo" (functions: min, max, mean, std, nan, size, dim, shape, width, height)`},
		{"mean(x, 1) > 0", 6, 1, "expected ')' after \"x\", found ','"},
		{"dim(x) > 0", 5, 1, "expected ',' and a dimension name or number after \"x\", found ')'"},
		{"dim(x, 1.5) > 0", 7, 3, "expected a dimension name in single quotes or a dimension number after ',', found the number 1.5"},
		{"mean() > 0", 5, 1, "expected a column name after '(', found ')'"},
		{"search(dog)", 7, 3, `expected a string in single quotes after '(', found "dog"`},
		{"search('dog'", 12, 0, "expected ')' after the string 'dog'"},
		{"shape(x) = [3, 2.5]", 15, 3, "expected an integer after ',', found the number 2.5"},
		{"shape(x) = [3 4]", 14, 1, "expected ',' or ']' after the number 3, found the number 4"},
		{"a = -'x'", 5, 3, "expected a number after '-', found the string 'x'"},
		{"a = 1 and", 9, 0, "expected a column name or function after 'and'"},
		{"not", 3, 0, "expected a column name or function after 'not'"},
	} {
		_, err := Parse(c.in)
		checkError(t, c.in, err, Span{c.off, c.n}, c.wantMsg)
	}
}

// checkError checks that err is an *Error with that message at that word.
func checkError(t *testing.T, q string, err error, at Span, msg string) {
	t.Helper()
	var pe *Error
	if !errors.As(err, &pe) {
		t.Errorf("%s: %v, want an *Error", q, err)
		return
	}
	if pe.At != at || pe.Msg != msg {
		t.Errorf("%s: %q at %d+%d, want %q at %d+%d", q, pe.Msg, pe.At.Off, pe.At.Len, msg, at.Off, at.Len)
	}
}

func TestErrorString(t *testing.T) {
	_, err := Parse("score > ")
	if got, want := err.Error(), "expected a value after '>' at 8"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestParseSort(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"score", "score"},
		{"-score", "-score"},
		{"+score", "score"},
		{"-MEAN(emb)", "-mean(emb)"},
		{`-"my col"`, `-"my col"`},
		{"dim(x, 'h')", "dim(x, 'h')"},
	} {
		k, err := ParseSort(c.in)
		if err != nil || k.String() != c.want {
			t.Errorf("ParseSort(%q) = %q, %v; want %q", c.in, k.String(), err, c.want)
		}
	}
	for _, c := range []struct {
		in  string
		off int
		msg string
	}{
		{"", 0, "expected a column name or function"},
		{"-", 1, "expected a column name or function after '-'"},
		{"score desc", 6, `expected the end of the sort key after "score", found "desc"`},
		{"--score", 1, "expected a column name or function after '-', found '-'"},
	} {
		_, err := ParseSort(c.in)
		var pe *Error
		if !errors.As(err, &pe) || pe.At.Off != c.off || pe.Msg != c.msg {
			t.Errorf("ParseSort(%q) = %v, want %q at %d", c.in, err, c.msg, c.off)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"label = 'cat' and score > 0.9", "not (a = 1 or b between -1 and 2e3)", `"x y" in ('a', 'b''c')`,
		"shape(x) = [3, 224, 224] or dim(x, 'h') < 3", "search('dog') and c is not null", "a not starts with 'Ä'",
		"x >= .5e-3", "mean(\"e\") != -0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		e, err := Parse(q)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.At.Off < 0 || pe.At.Off+pe.At.Len > len(q) {
				t.Fatalf("Parse(%q): bad error %v", q, err)
			}
			return
		}
		s := e.String()
		e2, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q) → %q, which fails: %v", q, s, err)
		}
		if s2 := e2.String(); s2 != s {
			t.Fatalf("Parse(%q) → %q → %q", q, s, s2)
		}
	})
}
