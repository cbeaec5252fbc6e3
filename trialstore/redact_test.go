package trialstore

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRedactLeadingSpaceAndEmbedded: a storage URL with leading white space is masked as it is
// without, and a URL's user info anywhere in a text is masked (issue 35: --storage '
// postgres://u:SECRET@127.0.0.1:1/db' was echoed whole in "unsupported storage URL").
func TestRedactLeadingSpaceAndEmbedded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{" postgres://u:SECRET@127.0.0.1:1/db", " postgres://u:xxxxx@127.0.0.1:1/db"},
		{"\t\n postgresql://u:SE CRET@h/db?password=SECRET2", "\t\n postgresql://u:xxxxx@h/db?password=xxxxx"},
		{"\x1b postgres:u:SECRET@h/db", "\x1b postgres:u:xxxxx@h/db"},
		{"  host=db password=SECRET", "  host=db password=xxxxx"},
		{"x postgres://u:SECRET@h/db", "x postgres://u:xxxxx@h/db"},
		{"x mysql://u:SE CRET@127.0.0.1:1/db", "x mysql://u:xxxxx@127.0.0.1:1/db"},
		{"gctune.db", "gctune.db"},
		{" plain file.db", " plain file.db"},
	} {
		got := RedactURL(c.in)
		assert.Equal(t, c.want, got, "%q", c.in)
		assert.NotContains(t, got, "SECRET", "%q", c.in)
	}
	for _, c := range []struct{ in, want string }{
		{`unsupported storage URL " mysql://root:SECRET@h/db": want`, `unsupported storage URL " mysql://root:xxxxx@h/db": want`},
		{`a: b c:d e`, `a: b c:d e`},
		{`see https://example.org/x and postgres://u@h/db`, `see https://example.org/x and postgres://u@h/db`},
		{`two: postgres://a:S1@h/db, redis://b:S2@h/0`, `two: postgres://a:xxxxx@h/db, redis://b:xxxxx@h/0`},
	} {
		assert.Equal(t, c.want, RedactText(c.in), c.in)
	}
}
