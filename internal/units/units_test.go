package units

import (
	"errors"
	"testing"
)

func TestParseBytes(t *testing.T) {
	cases := []struct {
		in   string
		want uint64
	}{
		{"1024", 1024},
		{"0", 0},
		{"64MiB", 64 << 20},
		{"64m", 64 << 20},
		{"64M", 64 << 20},
		{"64 MiB", 64 << 20},
		{" 16m ", 16 << 20},
		{"1.5GiB", 3 << 29},
		{"1.5g", 3 << 29},
		{"512k", 512 << 10},
		{"512K", 512 << 10},
		{"512KiB", 512 << 10},
		{"2t", 2 << 40},
		{"1TiB", 1 << 40},
		{"100B", 100},
		{"100b", 100},
		{"64MB", 64_000_000},
		{"1GB", 1_000_000_000},
		{"1.5GB", 1_500_000_000},
		{"3kB", 3000},
		{"3KB", 3000},
		{"2TB", 2_000_000_000_000},
		{"1.5k", 1536},
		{"0.1k", 102},
		{".5k", 512},
		{"18446744073709551615", 1<<64 - 1},
	}
	for _, c := range cases {
		got, err := ParseBytes(c.in)
		if err != nil {
			t.Errorf("ParseBytes(%q): %v", c.in, err)
			continue
		}
		if got != c.want {
			t.Errorf("ParseBytes(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestParseBytesErrors(t *testing.T) {
	for _, in := range []string{"", "MiB", "-1", "12x", "1.2.3k", "64 mb", "1e3", "18446744073709551616", "17179869184g", "1e30"} {
		_, err := ParseBytes(in)
		if err == nil {
			t.Errorf("ParseBytes(%q): no error", in)
			continue
		}
		if !errors.Is(err, ErrBadSize) {
			t.Errorf("ParseBytes(%q): error %v does not wrap ErrBadSize", in, err)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	cases := []struct {
		in   uint64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1 KiB"},
		{1536, "1.5 KiB"},
		{64 << 20, "64 MiB"},
		{500_000_000, "476.8 MiB"},
		{3 << 29, "1.5 GiB"},
		{1<<20 - 1, "1 MiB"},
		{5 << 40, "5 TiB"},
		{5 << 50, "5120 TiB"},
	}
	for _, c := range cases {
		if got := FormatBytes(c.in); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestBytesUnmarshalText(t *testing.T) {
	var b Bytes
	if err := b.UnmarshalText([]byte("16MiB")); err != nil {
		t.Fatal(err)
	}
	if b != 16<<20 || b.String() != "16 MiB" {
		t.Errorf("got %d (%s), want 16 MiB", uint64(b), b)
	}
	if err := b.UnmarshalText([]byte("lots")); !errors.Is(err, ErrBadSize) {
		t.Errorf("UnmarshalText(lots) = %v, want ErrBadSize", err)
	}
}

func TestFormatCount(t *testing.T) {
	for n, want := range map[uint64]string{0: "0", 999: "999", 1000: "1,000", 86002607: "86,002,607", 1e12: "1,000,000,000,000"} {
		if got := FormatCount(n); got != want {
			t.Errorf("FormatCount(%d) = %q, want %q", n, got, want)
		}
	}
	if got := GroupDigits("12345"); got != "12,345" {
		t.Errorf("GroupDigits = %q", got)
	}
}
