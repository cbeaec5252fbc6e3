package filip

import (
	"fmt"
	"strings"
)

// enumName returns names[v], the name of enumeration value v, or "typ(v)" for a value outside
// the table.
func enumName[T ~int](typ string, names []string, v T) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// parseEnum parses s, case-insensitive and with surrounding spaces ignored, as one of names
// (the value is its index) or one of aliases. An unknown s is an error naming what was parsed
// and every name.
func parseEnum[T ~int](what string, names []string, aliases map[string]T, s string) (T, error) {
	key := strings.ToLower(strings.TrimSpace(s))
	for i, n := range names {
		if key == n {
			return T(i), nil
		}
	}
	if v, ok := aliases[key]; ok {
		return v, nil
	}
	want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	return 0, fmt.Errorf("filip: unknown %s %q (want %s)", what, s, want)
}
