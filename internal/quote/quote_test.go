package quote

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestName(t *testing.T) {
	assert.Equal(t, "dataframe-3.1gb", Name("dataframe-3.1gb"))
	assert.Equal(t, "a+b c", Name("a+b c"))
	assert.Equal(t, `"a\nb"`, Name("a\nb"))
	assert.Equal(t, `""`, Name(""))
	assert.Equal(t, `" x"`, Name(" x"))
	assert.Equal(t, `"a\"b"`, Name(`a"b`))
	assert.Equal(t, `"a#b"`, Name("a#b"))
	assert.Equal(t, `"\u2028"`, Name("\u2028"))
	assert.Equal(t, `"\xff"`, Name("\xff"))
}

func TestShell(t *testing.T) {
	assert.Equal(t, "dataframe-3.1gb", Shell("dataframe-3.1gb"))
	assert.Equal(t, "a+b", Shell("a+b"))
	assert.Equal(t, "'a b'", Shell("a b"))
	assert.Equal(t, `'it'\''s'`, Shell("it's"))
	assert.Equal(t, "'$(rm -rf ~)'", Shell("$(rm -rf ~)"))
	assert.Equal(t, "''", Shell(""))
}
