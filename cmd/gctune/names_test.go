package main

import (
	"testing"

	"github.com/gctune/gctune/internal/termtext"
	"github.com/stretchr/testify/assert"
)

func TestTerminalSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, “quotes” ≥ 5 %":   "plain text, “quotes” ≥ 5 %",
		"\x1b]0;pwned\x07":             `\x1b]0;pwned\a`,
		"bad \xff byte":                `bad \xff byte`,
		"tab\tand\nnewline\r":          `tab\tand\nnewline\r`,
		"line\u2028separator\u0085nel": `line\u2028separator\u0085nel`,
		"":                             "",
	} {
		assert.Equal(t, want, termtext.Safe(in), "%q", in)
	}
}
