package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuoteCases(t *testing.T) {
	assert.Equal(t, "dataframe-3.1gb", Quote("dataframe-3.1gb"))
	assert.Equal(t, "a+b c", Quote("a+b c"))
	assert.Equal(t, `"a\nb"`, Quote("a\nb"))
	assert.Equal(t, `""`, Quote(""))
	assert.Equal(t, `" x"`, Quote(" x"))
	assert.Equal(t, `"a\"b"`, Quote(`a"b`))
	assert.Equal(t, `"a#b"`, Quote("a#b"))
	assert.Equal(t, `"\u2028"`, Quote("\u2028"))
	assert.Equal(t, `"\xff"`, Quote("\xff"))
}

func TestSafeCases(t *testing.T) {
	assert.Equal(t, "row 3: bad size «x»", Safe("row 3: bad size «x»"))
	assert.Equal(t, `title \x1b]0;pwned\a here`, Safe("title \x1b]0;pwned\a here"))
	assert.Equal(t, `bad \xff byte`, Safe("bad \xff byte"))
	assert.Equal(t, `a\u2028b`, Safe("a\u2028b"))
}

func TestPadAndBar(t *testing.T) {
	assert.Equal(t, "ab  ", PadRight("ab", 4))
	assert.Equal(t, "  ab", PadLeft("ab", 4))
	assert.Equal(t, "█▌  ", PadRight("█▌", 4), "runes, not bytes")
	assert.Equal(t, "abcde", PadLeft("abcde", 3), "never cut")
	assert.Equal(t, "", Bar(0, 1, 8))
	assert.Equal(t, "", Bar(1, 0, 8))
	assert.Equal(t, "████████", Bar(1, 1, 8))
	assert.Equal(t, "████", Bar(0.5, 1, 8))
	assert.Equal(t, "▏", Bar(1e-9, 1, 8), "a share above 0 shows")
	assert.Equal(t, "█▌", Bar(3, 16, 8))
}
