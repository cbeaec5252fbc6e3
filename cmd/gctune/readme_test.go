package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeInvocation is a gctune command line the README shows: in a code block, in an inline
// code span, or the flags of a command's paragraph (one that starts with its name in bold).
type readmeInvocation struct {
	line  int
	words []string // after "gctune"
	text  string
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	longFlag   = regexp.MustCompile(`^--[a-z][a-z0-9-]*(?:=|$)`)
	boldCmd    = regexp.MustCompile(`^\*\*([a-z]+)\*\* `)
)

// readmeInvocations finds the command lines of README.md.
func readmeInvocations(t *testing.T, readme string) []readmeInvocation {
	var out []readmeInvocation
	add := func(line int, text string) {
		text = strings.TrimSpace(text)
		for _, prefix := range []string{"go run ./cmd/gctune ", "gctune "} {
			if i := strings.Index(text, prefix); i >= 0 && (i == 0 || text[i-1] == ' ' || text[i-1] == '(' || text[i-1] == '|') {
				rest := text[i+len(prefix):]
				if j := strings.Index(rest, " #"); j >= 0 { // a shell comment
					rest = rest[:j]
				}
				for _, stop := range []string{" | ", " > ", " && ", ")"} {
					if j := strings.Index(rest, stop); j >= 0 {
						rest = rest[:j]
					}
				}
				out = append(out, readmeInvocation{line: line, words: strings.Fields(rest), text: text})
				return
			}
		}
	}
	inBlock := false
	paragraphCmd := ""
	for i, l := range strings.Split(readme, "\n") {
		n := i + 1
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			add(n, l)
			continue
		}
		if strings.TrimSpace(l) == "" {
			paragraphCmd = ""
		}
		if m := boldCmd.FindStringSubmatch(l); m != nil {
			paragraphCmd = m[1]
		}
		for _, m := range inlineCode.FindAllStringSubmatch(l, -1) {
			code := m[1]
			switch {
			case strings.HasPrefix(code, "gctune ") || strings.HasPrefix(code, "go run ./cmd/gctune "):
				add(n, code)
			case paragraphCmd != "" && longFlag.MatchString(strings.Fields(code + " x")[0]):
				out = append(out, readmeInvocation{line: n, words: []string{paragraphCmd, strings.Fields(code)[0]}, text: code})
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

// TestREADMEFlagsExist: every flag the README gives a command (`gctune optimize ... --trials`,
// or a `--flag` in the paragraph of **optimize**) is a flag of that command (issue 21: the
// README gave optimize --tolerance, which optimize did not have).
func TestREADMEFlagsExist(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	root := NewRootCmd(buildinfo.Build{})
	checked := 0
	for _, inv := range readmeInvocations(t, string(data)) {
		var words []string
		for _, w := range inv.words {
			if strings.HasPrefix(w, "-") {
				break
			}
			words = append(words, w)
		}
		cmd, _, err := root.Find(words)
		if err != nil || cmd == root && len(words) > 0 && !strings.HasPrefix(words[0], "-") {
			if len(words) > 0 {
				t.Errorf("README.md:%d: %q: no command %q", inv.line, inv.text, words[0])
			}
			continue
		}
		for _, w := range inv.words {
			if w == "--" { // the rest is another program's command line (verify)
				break
			}
			flag := longFlag.FindString(w)
			if flag == "" {
				continue
			}
			name := strings.TrimSuffix(strings.TrimPrefix(flag, "--"), "=")
			if cmd.Flags().Lookup(name) == nil && cmd.InheritedFlags().Lookup(name) == nil {
				t.Errorf("README.md:%d: %q: %s has no flag %s", inv.line, inv.text, cmd.CommandPath(), flag)
			}
			checked++
		}
	}
	assert.Greater(t, checked, 50, "the README names many flags")
}

// TestREADMEInvocationsParse checks the parser on lines of each kind.
func TestREADMEInvocationsParse(t *testing.T) {
	got := readmeInvocations(t, "a `gctune export s --format st` b\n\n**optimize** builds `--trials` and `search.x`\nthen `--workers`.\n\n`--nope`\n```\ngctune lifetimes x --bins 4   # --not-this\n```\n")
	var words [][]string
	for _, g := range got {
		words = append(words, g.words)
	}
	assert.Equal(t, [][]string{{"export", "s", "--format", "st"}, {"optimize", "--trials"}, {"optimize", "--workers"}, {"lifetimes", "x", "--bins", "4"}}, words)
}
