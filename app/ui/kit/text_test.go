package kit

import "testing"

func TestPluralAndNamesSuffix(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(1, "box", "boxes"), "1 box"},
		{Plural(0, "box", "boxes"), "0 boxes"},
		{Plural(3, "box", "boxes"), "3 boxes"},
		{NamesSuffix([]string{"H", "W", "C"}), " (H,W,C)"},
		{NamesSuffix(nil), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
