package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

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
