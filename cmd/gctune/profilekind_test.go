//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProfileKindFromContent: a profile given as a pipe (process substitution, /dev/fd/N), as
// standard input (-) or as a file without a known extension is read by its content, as the
// same file with its extension is; the temporary copy is never named (issue 35: "/dev/fd/63":
// unknown file type ""). --help says inputs may be FIFOs, read as streams.
func TestProfileKindFromContent(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	csv, err := filepath.Abs("testdata/run.csv")
	require.NoError(t, err)
	meta, err := filepath.Abs("testdata/run.json")
	require.NoError(t, err)
	spec, err := filepath.Abs("testdata/tiny.yaml")
	require.NoError(t, err)
	noext := filepath.Join(dir, "recorded")
	b, err := os.ReadFile(csv)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(noext, b, 0o644))

	want, _ := gctuneOK(t, "--json", "lifetimes", csv, "--meta", meta)
	wantSpec, _ := gctuneOK(t, "--json", "lifetimes", spec)
	bash := func(script string) (string, string, int) {
		cmd := exec.Command("bash", "-c", script, os.Args[0])
		cmd.Env = append(os.Environ(), "GCTUNETEST_MAIN=1")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			require.NoError(t, err)
		}
		return out.String(), errb.String(), cmd.ProcessState.ExitCode()
	}
	// The summaries name their source; compare the rest.
	same := func(a, b string) bool {
		return summaryWithoutSource(t, a) == summaryWithoutSource(t, b)
	}
	for _, c := range []struct {
		script string
		want   string
	}{
		{`"$0" --json lifetimes <(cat ` + csv + `) --meta ` + meta, want},
		{`"$0" --json lifetimes - --meta ` + meta + ` < ` + csv, want},
		{`"$0" --json lifetimes ` + noext + ` --meta ` + meta, want},
		{`"$0" --json lifetimes <(cat ` + spec + `)`, wantSpec},
		{`cat ` + spec + ` | "$0" --json lifetimes -`, wantSpec},
	} {
		out, errOut, code := bash(c.script)
		require.Equal(t, 0, code, "%s: %s", c.script, errOut)
		assert.True(t, same(c.want, out), c.script)
		assert.False(t, strings.Contains(errOut+out, "gctune-input-"), "%s: the temporary copy is never named", c.script)
	}
	// Without its metadata, a stream's export names itself, not the copy.
	_, errOut, code := bash(`"$0" lifetimes <(cat ` + csv + `)`)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.NotContains(t, errOut, "gctune-input-")
	assert.Contains(t, errOut, "/dev/fd/")
	// Content that is no profile: one line naming it.
	junk := filepath.Join(dir, "junk")
	require.NoError(t, os.WriteFile(junk, []byte("hello\n"), 0o644))
	_, errOut, code = gctune(t, "lifetimes", junk)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: "+junk+": cannot tell its kind from its content: want a FiLiP export (CSV), a workload spec (YAML) or a .gcprof profile\n", errOut)
	// No temporary folder left.
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "gctune-input-*"))
	assert.Empty(t, left)

	help, _ := gctuneOK(t, "lifetimes", "--help")
	assert.Contains(t, strings.Join(strings.Fields(help), " "), "Inputs may be FIFOs or pipes, read once as streams")
}

// summaryWithoutSource is a lifetimes --json document without the fields that name its input.
func summaryWithoutSource(t *testing.T, doc string) string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(doc, "\n") {
		if strings.Contains(l, `"source"`) || strings.Contains(l, `"path"`) || strings.Contains(l, `"ref"`) || strings.Contains(l, `"profile"`) || strings.Contains(l, `"input"`) || strings.Contains(l, `"line"`) || strings.Contains(l, `"meta`) {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}
