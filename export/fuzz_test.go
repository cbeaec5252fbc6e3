package export

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// stCode returns the code of a Smalltalk script outside its comments and strings: a comment
// runs from '"' to the next '"' ('""' inside one stands for a quote, which a tokenizer sees as
// a comment ending and the next beginning: the same code either way), a string from '\” to
// the next '\” (” inside one is a quote). ok is false when a comment or string is left open.
func stCode(script string) (code string, ok bool) {
	var b strings.Builder
	in := byte(0) // 0: code; '"': in a comment; '\'': in a string
	for i := 0; i < len(script); i++ {
		c := script[i]
		switch {
		case in == 0 && (c == '"' || c == '\''):
			in = c
			if c == '\'' {
				b.WriteByte(c)
			}
		case in == 0:
			b.WriteByte(c)
		case c == in:
			if c == '\'' {
				if i+1 < len(script) && script[i+1] == '\'' {
					b.WriteString("''")
					i++
					continue
				}
				b.WriteByte(c)
			}
			in = 0
		case in == '\'':
			b.WriteByte(c)
		}
	}
	return b.String(), in == 0
}

// FuzzNames exports a configuration whose study and workload names are arbitrary: the .st
// script must hold no code but its parameterAt:put: statements, outside its comments, and the
// YAML must load back with the same keys and the names intact.
func FuzzNames(f *testing.F) {
	for _, s := range []string{"dataframe-3.1gb", `x" Smalltalk os runCommand: 'rm -rf ~'. "`, "a\nstorage: evil", "\"\"\"", "'", "#", "\u2028x", "\x85", "\xff\xfe", "", " ", "a: b", "- x", "{", "&a *a", "!!binary x", "\r", "\t"} {
		f.Add(s, "w.csv")
		f.Add("study", s)
	}
	want := FromRecommendation(testMeta("study", "workload"), testRecommendation())
	var ref bytes.Buffer
	if err := WriteST(&ref, want); err != nil {
		f.Fatal(err)
	}
	refCode, ok := stCode(ref.String())
	if !ok {
		f.Fatal("the reference script leaves a comment open")
	}
	f.Fuzz(func(t *testing.T, study, workload string) {
		c := FromRecommendation(testMeta(study, workload, workload+"+"), testRecommendation())
		var st bytes.Buffer
		if err := WriteST(&st, c); err != nil {
			t.Fatal(err)
		}
		code, ok := stCode(st.String())
		if !ok {
			t.Fatalf("a comment or string is left open:\n%s", st.String())
		}
		if code != refCode {
			t.Fatalf("the names changed the script's code:\n%q\nwant\n%q", code, refCode)
		}

		var y bytes.Buffer
		if err := WriteYAML(&y, c, "test"); err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]any
		if err := yaml.Unmarshal(y.Bytes(), &doc); err != nil {
			t.Fatalf("the YAML does not load: %v\n%s", err, y.String())
		}
		if len(doc) != 2 || doc["simulate"] == nil || doc["provenance"] == nil {
			t.Fatalf("top-level keys %v, want simulate and provenance:\n%s", keys(doc), y.String())
		}
		var refY bytes.Buffer
		if err := WriteYAML(&refY, want, "test"); err != nil {
			t.Fatal(err)
		}
		var refDoc map[string]map[string]any
		if err := yaml.Unmarshal(refY.Bytes(), &refDoc); err != nil {
			t.Fatal(err)
		}
		for _, sec := range []string{"simulate", "provenance"} {
			if got, want := strings.Join(keys(doc[sec]), ","), strings.Join(keys(refDoc[sec]), ","); got != want {
				t.Fatalf("%s keys %s, want %s:\n%s", sec, got, want, y.String())
			}
		}
		if got, _ := doc["provenance"]["study"].(string); got != study && validUTF8(study) {
			t.Fatalf("study name %q loads back as %q", study, got)
		}
	})
}

// TestStCode checks the tokenizer the fuzz target relies on: it must see code that a name
// breaking out of a comment would add.
func TestStCode(t *testing.T) {
	code, ok := stCode(`"a ""quoted"" comment" x := 'it''s "not" a comment'. "b"`)
	if !ok || code != ` x := 'it''s "not" a comment'. ` {
		t.Fatalf("got %q, %v", code, ok)
	}
	raw := "\"gctune: study x\" Smalltalk os runCommand: 'rm -rf ~'. \" trial 1\"\n"
	if code, _ := stCode(raw); !strings.Contains(code, "runCommand") {
		t.Fatalf("an unescaped name's code was not seen: %q", code)
	}
	if _, ok := stCode(`"open`); ok {
		t.Fatal("an open comment was not seen")
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
