package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrBadSize is wrapped by every error ParseBytes returns.
var ErrBadSize = errors.New("units: bad size")

// Binary multiples.
const (
	KiB uint64 = 1 << (10 * (iota + 1))
	MiB
	GiB
	TiB
)

// multipliers maps each accepted unit (as written, after trimming spaces) to its size in bytes.
// Lookups try the unit as written first, then in lower case for the single letters.
var multipliers = map[string]uint64{
	"":    1,
	"b":   1,
	"B":   1,
	"k":   KiB,
	"K":   KiB,
	"m":   MiB,
	"M":   MiB,
	"g":   GiB,
	"G":   GiB,
	"t":   TiB,
	"T":   TiB,
	"KiB": KiB,
	"MiB": MiB,
	"GiB": GiB,
	"TiB": TiB,
	"kB":  1e3,
	"KB":  1e3,
	"MB":  1e6,
	"GB":  1e9,
	"TB":  1e12,
}

// ParseBytes parses a size in bytes: a non-negative number, optionally fractional, optionally
// followed by a unit (see the package documentation: k, m, g, t and KiB, MiB, GiB, TiB are
// binary; kB, MB, GB, TB are decimal). A fractional size is rounded to the nearest byte
// ("1.5k" = 1536, "0.1k" = 102). Errors wrap ErrBadSize and quote the input.
func ParseBytes(s string) (uint64, error) {
	in := strings.TrimSpace(s)
	end := 0
	for end < len(in) && (in[end] >= '0' && in[end] <= '9' || in[end] == '.') {
		end++
	}
	num, unit := in[:end], strings.TrimSpace(in[end:])
	if num == "" {
		return 0, fmt.Errorf("%w %q: want a number of bytes with an optional unit (1024, 512k, 64MiB, 1.5GiB)", ErrBadSize, s)
	}
	mult, ok := multipliers[unit]
	if !ok {
		return 0, fmt.Errorf("%w %q: unknown unit %q (want k, m, g, t, KiB, MiB, GiB, TiB, kB, MB, GB or TB)", ErrBadSize, s, unit)
	}
	if !strings.Contains(num, ".") {
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%w %q: %w", ErrBadSize, s, err)
		}
		if n > math.MaxUint64/mult {
			return 0, fmt.Errorf("%w %q: too large", ErrBadSize, s)
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %w", ErrBadSize, s, err)
	}
	v := math.Round(f * float64(mult))
	if v >= math.MaxUint64 {
		return 0, fmt.Errorf("%w %q: too large", ErrBadSize, s)
	}
	return uint64(v), nil
}

// FormatBytes writes n in the largest binary unit it reaches, with at most one decimal:
// "512 B", "1.5 KiB", "64 MiB", "476.8 MiB", "3.1 GiB". The result is for people; it is not
// always exact (ParseBytes(FormatBytes(n)) may differ from n by up to 0.05 of the unit).
func FormatBytes(n uint64) string {
	if n < KiB {
		return strconv.FormatUint(n, 10) + " B"
	}
	names := []string{"KiB", "MiB", "GiB", "TiB"}
	size, i := KiB, 0
	for i < len(names)-1 && n >= size*1024 {
		size *= 1024
		i++
	}
	v := math.Round(float64(n)/float64(size)*10) / 10
	if v >= 1024 && i < len(names)-1 { // 1023.96 KiB rounds up to the next unit
		v, i = 1, i+1
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " " + names[i]
}

// Bytes is a size in bytes that decodes from text with ParseBytes, so configuration structs
// can accept "64MiB" where they hold a byte count (mapstructure's TextUnmarshaller hook, YAML,
// encoding/json strings). It encodes as a plain number.
type Bytes uint64

// UnmarshalText implements encoding.TextUnmarshaler with ParseBytes.
func (b *Bytes) UnmarshalText(text []byte) error {
	n, err := ParseBytes(string(text))
	if err != nil {
		return err
	}
	*b = Bytes(n)
	return nil
}

// String formats b with FormatBytes.
func (b Bytes) String() string { return FormatBytes(uint64(b)) }

// GroupDigits puts thousands separators into a string of decimal digits: "86002607" →
// "86,002,607".
func GroupDigits(digits string) string {
	if len(digits) <= 3 {
		return digits
	}
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// FormatCount writes n with thousands separators: 86002607 → "86,002,607".
func FormatCount(n uint64) string { return GroupDigits(strconv.FormatUint(n, 10)) }

// ExactBytes writes n as a configuration file holds a size: in the largest binary unit that
// divides it exactly ("56MiB", "2GiB", "4KiB"), else in bytes ("58720257"). ParseBytes reads
// it back exactly.
func ExactBytes(n uint64) string {
	for _, u := range []struct {
		size uint64
		name string
	}{{TiB, "TiB"}, {GiB, "GiB"}, {MiB, "MiB"}, {KiB, "KiB"}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatUint(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatUint(n, 10)
}
