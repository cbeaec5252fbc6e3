package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/buildinfo"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// completions runs cobra's hidden __complete command and returns the candidates and the
// directive line.
func completions(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	out, _, code := gctune(t, append([]string{"__complete"}, args...)...)
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// TestCompletionStudyAndWorkloadNames: study names come from the configured storage, quietly
// nothing when it cannot be opened; workload names are the bundled ones and profile files
// (issue 13.5).
func TestCompletionStudyAndWorkloadNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	optimizeTiny(t, db, "alpha", 1, "-q")
	for _, args := range [][]string{
		{"export", "--storage", db, "a"},
		{"studies", "show", "--storage", db, ""},
		{"report", "--storage", db, "al"},
		{"worker", "--storage", db, "--study", ""},
	} {
		got, directive := completions(t, args...)
		assert.Equal(t, []string{"alpha"}, got, args)
		assert.Equal(t, ":4", directive, args) // no file completion
	}
	got, _ := completions(t, "export", "--storage", filepath.Join(t.TempDir(), "missing.db"), "")
	assert.Empty(t, got, "a missing storage completes nothing")
	assert.NoFileExists(t, filepath.Join(filepath.Dir(db), "missing.db"))

	got, _ = completions(t, "lifetimes", "dataframe-")
	assert.Equal(t, []string{"dataframe-1.6gb", "dataframe-3.1gb", "dataframe-500mb"}, got)
	got, _ = completions(t, "optimize", "testdata/ti")
	assert.Equal(t, []string{"testdata/tiny.yaml"}, got)
	got, _ = completions(t, "study", "create", "x", "request")
	assert.Equal(t, []string{"request-server"}, got)
}

// TestCompletionFlagValues: the enumeration flags complete their values from the table they
// are checked against.
func TestCompletionFlagValues(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"export", "s", "--format", ""}, []string{"st", "json", "yaml", "flags"}},
		{[]string{"export", "s", "--format", "y"}, []string{"yaml"}},
		{[]string{"optimize", "x", "--sampler", "tpe"}, []string{"tpe", "tpe-independent"}},
		{[]string{"optimize", "x", "--aggregate", ""}, []string{"max", "mean"}},
		{[]string{"lifetimes", "x", "--rebuild", ""}, []string{"auto", "short", "long", "stored", "off"}},
		{[]string{"simulate", "x", "--clock", ""}, []string{"auto", "bytes", "us"}},
		{[]string{"resume", "x", "--clock", "b"}, []string{"bytes"}},
		{[]string{"lifetimes", "x", "--scale", ""}, []string{"log", "linear"}},
	} {
		got, directive := completions(t, c.args...)
		assert.Equal(t, c.want, got, "%v", c.args)
		assert.Equal(t, ":4", directive, "%v: no file completion", c.args)
	}
	// Every command with such a flag completes it.
	cmdutil.Walk(NewRootCmd(buildinfo.Build{}), func(c *cobra.Command) {
		for name := range cmdutil.EnumFlagValues() {
			if c.LocalFlags().Lookup(name) == nil {
				continue
			}
			_, ok := c.GetFlagCompletionFunc(name)
			assert.True(t, ok, "%s --%s has no completion", c.CommandPath(), name)
		}
	})
}

// TestCompletionListsShells: completion without a shell lists the shells it writes scripts
// for, one a line, and succeeds, as the README says (issue 31); a shell it does not know is a
// usage error; its help says that bash's script needs the bash-completion package.
func TestCompletionListsShells(t *testing.T) {
	out, errOut, code := gctune(t, "completion")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "bash\nzsh\nfish\npowershell\n", out)
	assert.Empty(t, errOut)
	_, errOut, code = gctune(t, "completion", "tcsh")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: completion: no shell \"tcsh\": want bash, zsh, fish, powershell\n", errOut)
	out, _ = gctuneOK(t, "completion", "--help")
	assert.Contains(t, out, "bash-completion")
	got, _ := completions(t, "completion", "")
	assert.Equal(t, []string{"bash", "zsh", "fish", "powershell"}, got)
}
