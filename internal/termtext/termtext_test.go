package termtext

import "testing"

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"dataframe-3.1gb": "dataframe-3.1gb",
		"":                `""`,
		" lead":           `" lead"`,
		"a#b":             `"a#b"`,
		"a\nb":            `"a\nb"`,
		"App>>#cache":     `"App>>#cache"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"study a, session 1": "study a, session 1",
		"a\nstorage: evil":   `a\nstorage: evil`,
		"é\x1b[2J":           `é\x1b[2J`,
		"bad\xffutf8":        `bad\xffutf8`,
		"sep\u2028":          `sep\u2028`,
	} {
		if got := Safe(in); got != want {
			t.Errorf("Safe(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestPad(t *testing.T) {
	if got := PadRight("1.2×", 6); got != "1.2×  " {
		t.Errorf("PadRight = %q", got)
	}
	if got := PadLeft("—", 3); got != "  —" {
		t.Errorf("PadLeft = %q", got)
	}
	if got := PadLeft("long", 2); got != "long" {
		t.Errorf("PadLeft of a longer string = %q", got)
	}
}

// TestShell: a word a shell would split or expand is single-quoted, a ' inside written '\”.
func TestShell(t *testing.T) {
	for in, want := range map[string]string{
		"dataframe-3.1gb": "dataframe-3.1gb",
		"a+b":             "a+b",
		"a b":             "'a b'",
		"it's":            `'it'\''s'`,
		"$(rm -rf ~)":     "'$(rm -rf ~)'",
		"":                "''",
	} {
		if got := Shell(in); got != want {
			t.Errorf("Shell(%q) = %q, want %q", in, got, want)
		}
	}
}
