package errwriter

import (
	"errors"
	"strings"
	"testing"
)

// failAfter accepts n writes, then fails every write with errFull.
type failAfter struct {
	n   int
	got strings.Builder
}

var errFull = errors.New("disk full")

func (f *failAfter) Write(b []byte) (int, error) {
	if f.n == 0 {
		return 0, errFull
	}
	f.n--
	return f.got.Write(b)
}

func TestWriter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		writes  int // writes the underlying writer accepts
		want    string
		wantErr error
	}{
		{"all succeed", 3, "a=1\nb=2\nc=3\n", nil},
		{"second fails", 1, "a=1\n", errFull},
		{"first fails", 0, "", errFull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &failAfter{n: tc.writes}
			ew := New(f)
			ew.Printf("a=%d\n", 1)
			ew.Printf("b=%d\n", 2)
			if tc.writes < 3 {
				f.n = 1 // a later write would succeed: the Writer must not try it
			}
			ew.Printf("c=%d\n", 3)
			if got := f.got.String(); got != tc.want {
				t.Errorf("written %q, want %q", got, tc.want)
			}
			if !errors.Is(ew.Err(), tc.wantErr) {
				t.Errorf("Err() = %v, want %v", ew.Err(), tc.wantErr)
			}
		})
	}
}

func TestWriteAfterError(t *testing.T) {
	ew := New(&failAfter{})
	if _, err := ew.Write([]byte("x")); !errors.Is(err, errFull) {
		t.Fatalf("first Write: %v, want %v", err, errFull)
	}
	if n, err := ew.Write([]byte("y")); n != 0 || !errors.Is(err, errFull) {
		t.Errorf("Write after error = %d, %v; want 0, %v", n, err, errFull)
	}
}
