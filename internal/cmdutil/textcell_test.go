package cmdutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestBar: eighth-cell resolution, one eighth for a share too small to see, nothing for none.
func TestBar(t *testing.T) {
	assert.Equal(t, "██████████", Bar(1, 1, 10))
	assert.Equal(t, "█████", Bar(1, 2, 10))
	assert.Equal(t, "▌", Bar(1, 20, 10))
	assert.Equal(t, "▏", Bar(1e-9, 1, 10))
	assert.Equal(t, "", Bar(0, 1, 10))
	assert.Equal(t, "", Bar(1, 0, 10))
}

// TestPadRightAndColumnWidths: widths in runes, not bytes.
func TestPadRightAndColumnWidths(t *testing.T) {
	assert.Equal(t, "██  ", PadRight("██", 4))
	assert.Equal(t, "toolong", PadRight("toolong", 3))
	assert.Equal(t, [4]int{2, 3, 0, 1}, ColumnWidths([][4]string{{"ab", "≥ 5", "", "x"}, {"a", "", "", ""}}))
}
