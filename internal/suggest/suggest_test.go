package suggest

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNearest: the nearest candidates within a third of the name's length, and those the
// name starts, sorted.
func TestNearest(t *testing.T) {
	names := []string{"dataframe-3.1gb", "dataframe-1gb", "holds-landscape", "trials"}
	assert.Equal(t, []string{"dataframe-3.1gb"}, Nearest("datafram-3.1gb", names))
	assert.Equal(t, []string{"dataframe-1gb", "dataframe-3.1gb"}, Nearest("dataf", names))
	assert.Equal(t, []string{"trials"}, Nearest("trails", names))
	assert.Empty(t, Nearest("zzz", names))
	assert.Empty(t, Nearest("trials", names), "the name itself is no suggestion")
	assert.Empty(t, Nearest("ab", []string{"ba"}), "a two-letter name allows no edit")
	assert.Equal(t, []string{"abcd"}, Nearest("abc", []string{"abcd", "abcd"}), "each once")
}

// TestEditDistance: insertions, deletions, substitutions and adjacent transpositions count one
// each.
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"trials", "trails", 1},
		{"trials", "trial", 1}, {"trials", "tricks", 2}, {"ca", "abc", 3}, {"kitten", "sitting", 3},
	} {
		assert.Equal(t, c.want, EditDistance(c.a, c.b), "%q %q", c.a, c.b)
		assert.Equal(t, c.want, EditDistance(c.b, c.a), "%q %q", c.b, c.a)
	}
}

// TestDidYouMean: the suggestions joined with "or", quoted when a quote is given.
func TestDidYouMean(t *testing.T) {
	assert.Equal(t, ` (did you mean "a" or "b c"?)`, DidYouMean([]string{"a", "b c"}, strconv.Quote))
	assert.Equal(t, " (did you mean --trials?)", DidYouMean([]string{"--trials"}, nil))
	assert.Equal(t, "", DidYouMean(nil, nil))
	in := []string{"x"}
	DidYouMean(in, strconv.Quote)
	assert.Equal(t, []string{"x"}, in, "the suggestions are not quoted in place")
}
