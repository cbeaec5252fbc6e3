package filip

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseRate reads a sampling rate: "1/N", a fraction 1/N written as a decimal ("0.01") or
// "1", and returns N (at most math.MaxUint32). The error names the text and what is wanted,
// for a caller to prefix with where it came from (a flag).
func ParseRate(s string) (uint64, error) {
	bad := fmt.Errorf("%q: want 1/N with N a positive integer (1/100, 0.001 or 1)", s)
	s = strings.TrimSpace(s)
	if num, den, ok := strings.Cut(s, "/"); ok {
		if strings.TrimSpace(num) != "1" {
			return 0, bad
		}
		n, err := strconv.ParseUint(strings.TrimSpace(den), 10, 64)
		if err != nil || n == 0 || n > math.MaxUint32 {
			return 0, bad
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0 && f <= 1) {
		return 0, bad
	}
	n := math.Round(1 / f)
	if n > math.MaxUint32 || math.Abs(1/n-f) > 1e-9*f {
		return 0, bad
	}
	return uint64(n), nil
}
