package jsonkeys

import (
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

func TestFirstDuplicate(t *testing.T) {
	for _, c := range []struct {
		doc   string
		key   string
		found bool
	}{
		{`{}`, "", false},
		{`{"a":1,"b":2}`, "", false},
		{`{"a":1,"a":2}`, "a", true},
		{`{"":1,"":2}`, "", true},
		{`{"a":{"b":1},"b":{"b":2}}`, "", false}, // the same key in two objects
		{`{"a":{"b":1,"b":2},"a":3}`, "b", true}, // the first in document order
		{`[{"x":1},{"y":1,"y":2}]`, "y", true},
		{`{"n":1e999,"n":2}`, "n", true}, // a number too large for float64 is no fault
		{`{"a":1,"a"`, "a", true},        // found before the fault
		{`{"a":1,`, "", false},           // malformed: left to the decoder
		{`{"a" 1,"a":2}`, "", false},
		{``, "", false},
		{`"a" {"a":1,"a":2}`, "", false}, // the first value only
	} {
		key, found, err := FirstDuplicate(strings.NewReader(c.doc))
		if err != nil || key != c.key || found != c.found {
			t.Errorf("FirstDuplicate(%s) = %q, %v, %v; want %q, %v, nil", c.doc, key, found, err, c.key, c.found)
		}
	}
}

func TestFirstDuplicateTooDeep(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	if _, _, err := FirstDuplicate(strings.NewReader(deep)); err != nil {
		t.Errorf("%d levels: %v", MaxDepth+1, err)
	}
	deeper := "[" + deep + "]"
	if _, _, err := FirstDuplicate(strings.NewReader(deeper)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("%d levels: %v, want ErrTooDeep", MaxDepth+2, err)
	}
}

func TestFirstDuplicateReadError(t *testing.T) {
	boom := errors.New("boom")
	if _, _, err := FirstDuplicate(iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("err = %v, want the reader's", err)
	}
}
