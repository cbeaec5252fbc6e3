package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gctune runs the command line in-process and returns stdout, stderr and the exit code.
func gctune(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// gctuneJSON runs the command line with --json, requires success and decodes stdout into v.
func gctuneJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errOut, code := gctune(t, append([]string{"--json"}, args...)...)
	require.Equal(t, 0, code, "stderr: %s", errOut)
	require.NoError(t, json.Unmarshal([]byte(out), v), "stdout: %s", out)
}

// writeFile writes content to name in a fresh temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestNoArgsPrintsHelp(t *testing.T) {
	out, _, code := gctune(t)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Available Commands:")
	assert.Contains(t, out, "lifetimes")
}

func TestUnknownCommand(t *testing.T) {
	out, errOut, code := gctune(t, "lifetime", "x")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Equal(t, `gctune: unknown command "lifetime" for "gctune" (did you mean lifetimes?); run 'gctune --help' for the commands`+"\n", errOut)
}

// TestFlagErrorIsOneLine: a flag typo prints one line saying where help is, not the usage
// (issue 13.5: 21 lines of usage came before the one that mattered).
func TestFlagErrorIsOneLine(t *testing.T) {
	_, errOut, code := gctune(t, "lifetimes", "--nope", "tiny")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "gctune: unknown flag --nope (see gctune lifetimes --help)\n", errOut)
	_, errOut, code = gctune(t, "optimize", "tiny", "--trails", "5")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "gctune: unknown flag --trails (see gctune optimize --help)\n", errOut)
	out, _, code := gctune(t, "optimize", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage:", "usage on --help")

	_, errOut, code = gctune(t, "lifetimes", "--threshold", "lots", "tiny")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, lastLine(errOut), `invalid argument "lots" for "--threshold"`)
}

func TestWrongArgumentCount(t *testing.T) {
	_, errOut, code := gctune(t, "lifetimes")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "gctune: gctune lifetimes wants 1 argument (WORKLOAD|PROFILE.csv|SPEC.yaml|PROFILE.gcprof), got 0 (see gctune lifetimes --help)\n", errOut)

	_, _, code = gctune(t, "version", "extra")
	assert.Equal(t, exitUsage, code)
}

func TestExitCodes(t *testing.T) {
	assert.Equal(t, 0, exitCode(nil))
	assert.Equal(t, 1, exitCode(errors.New("boom")))
	assert.Equal(t, 2, exitCode(usageErrorf("bad %s", "input")))
	assert.Equal(t, 2, exitCode(wrapf(usageErrorf("bad"))), "usage errors stay usage errors when wrapped")
	assert.Nil(t, asUsage(nil))
	assert.Equal(t, "a b c", oneLine(errors.New("gctune: a\n\n  b\nc\n")))
}

func wrapf(err error) error { return errors.Join(errors.New("context"), err) }

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, code := gctune(t, "completion", shell)
		assert.Equal(t, 0, code, "%s: %s", shell, errOut)
		assert.Contains(t, out, "gctune", shell)
	}
	_, _, code := gctune(t, "completion", "tcsh")
	assert.Equal(t, exitUsage, code)
}
