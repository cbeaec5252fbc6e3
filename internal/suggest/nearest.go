package suggest

import (
	"slices"
	"strings"
)

// Nearest lists the candidates a mistyped name may have meant, sorted and each once: those at
// the smallest edit distance from name (a transposition counts one edit, EditDistance), if it
// is at most a third of name's length (two at most), and those that start with name when it
// has three letters or more; never name itself.
func Nearest(name string, candidates []string) []string {
	limit := min(2, len(name)/3)
	best := limit + 1
	var near, prefixed []string
	for _, c := range candidates {
		if c == name {
			continue
		}
		if len(name) >= 3 && strings.HasPrefix(c, name) && !slices.Contains(prefixed, c) {
			prefixed = append(prefixed, c)
		}
		switch d := EditDistance(name, c); {
		case d > limit:
		case d < best:
			best, near = d, []string{c}
		case d == best && !slices.Contains(near, c):
			near = append(near, c)
		}
	}
	out := prefixed
	for _, c := range near {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// EditDistance is the optimal-string-alignment distance between a and b, by bytes: the
// insertions, deletions, substitutions and transpositions of adjacent bytes that turn a into
// b ("trails" is one from "trials").
func EditDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
