package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/gctune/gctune/internal/cmdutil"
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
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Empty(t, out)
	assert.Equal(t, `gctune: unknown command "lifetime" for "gctune" (did you mean lifetimes?); run 'gctune --help' for the commands`+"\n", errOut)
}

// TestFlagErrorIsOneLine: a flag typo prints one line saying where help is, not the usage
// (issue 13.5: 21 lines of usage came before the one that mattered).
func TestFlagErrorIsOneLine(t *testing.T) {
	_, errOut, code := gctune(t, "lifetimes", "--nope", "tiny")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: unknown flag --nope (see gctune lifetimes --help)\n", errOut)
	_, errOut, code = gctune(t, "optimize", "tiny", "--trails", "5")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: unknown flag --trails (did you mean --trials?) (see gctune optimize --help)\n", errOut)
	out, _, code := gctune(t, "optimize", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage:", "usage on --help")

	_, errOut, code = gctune(t, "lifetimes", "--threshold", "lots", "tiny")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: --threshold lots: not a number (see gctune lifetimes --help)\n", errOut)
	// A number too large for its type is out of range, not "not a number" (issue 31).
	_, errOut, code = gctune(t, "lifetimes", "--threshold", "1e400", "tiny")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: --threshold 1e400: out of range (a number up to 1.8e308 in magnitude) (see gctune lifetimes --help)\n", errOut)
	_, errOut, code = gctune(t, "optimize", "tiny", "--trials", "99999999999999999999")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "--trials 99999999999999999999: out of range (a whole number from")
}

// TestFlagErrorsInGctunesWords: a bad flag value says which flag, the value as typed and what
// it must be, in gctune's words, never Go's parser's (issue 21: "strconv.ParseInt: parsing
// \"abc\": invalid syntax").
func TestFlagErrorsInGctunesWords(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"optimize", "tiny", "--trials", "abc"}, "gctune: --trials abc: not a whole number (see gctune optimize --help)\n"},
		{[]string{"optimize", "tiny", "--trials"}, "gctune: --trials needs a value (see gctune optimize --help)\n"},
		{[]string{"optimize", "tiny", "--seed", "-1"}, "gctune: --seed -1: not a whole number ≥ 0 (see gctune optimize --help)\n"},
		{[]string{"optimize", "tiny", "--no-seed=maybe"}, "gctune: --no-seed maybe: not true or false (write --no-seed=false to turn it off) (see gctune optimize --help)\n"},
		{[]string{"lifetimes", "tiny", "--bins", "many words"}, "gctune: --bins 'many words': not a whole number (see gctune lifetimes --help)\n"},
		{[]string{"lifetimes", "tiny", "--json=x"}, "gctune: --json x: not true or false (write --json=false to turn it off) (see gctune lifetimes --help)\n"},
	} {
		out, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v", c.args)
		assert.Empty(t, out)
		assert.Equal(t, c.want, errOut, "%v", c.args)
		assert.NotContains(t, errOut, "strconv")
	}
}

// TestSuggestions: a mistyped command or flag gets the names it may have meant.
func TestSuggestions(t *testing.T) {
	_, errOut, code := gctune(t, "optimze", "tiny")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: unknown command "optimze" for "gctune" (did you mean optimize?); run 'gctune --help' for the commands`+"\n", errOut)
	_, errOut, code = gctune(t, "studies", "lst")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: unknown command "lst" for "gctune studies" (did you mean list?); run 'gctune studies --help' for the commands`+"\n", errOut)
	_, errOut, _ = gctune(t, "export", "s", "--formt", "st")
	assert.Equal(t, "gctune: unknown flag --formt (did you mean --format?) (see gctune export --help)\n", errOut)
	_, errOut, _ = gctune(t, "optimize", "s", "--jsn")
	assert.Equal(t, "gctune: unknown flag --jsn (did you mean --json?) (see gctune optimize --help)\n", errOut, "inherited flags too")
	_, errOut, _ = gctune(t, "optimize", "s", "--zzzzzzzz")
	assert.Equal(t, "gctune: unknown flag --zzzzzzzz (see gctune optimize --help)\n", errOut, "no suggestion when nothing is near")
}

// TestVersionFlag: gctune --version prints what gctune version prints.
func TestVersionFlag(t *testing.T) {
	want, _ := gctuneOK(t, "version")
	got, _ := gctuneOK(t, "--version")
	assert.Equal(t, want, got)
	assert.True(t, strings.HasPrefix(got, "gctune "), got)
	wantJSON, _ := gctuneOK(t, "version", "--json")
	gotJSON, _ := gctuneOK(t, "--version", "--json")
	assert.Equal(t, wantJSON, gotJSON)
}

func TestWrongArgumentCount(t *testing.T) {
	_, errOut, code := gctune(t, "lifetimes")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: gctune lifetimes wants 1 argument (WORKLOAD|PROFILE.csv|SPEC.yaml|PROFILE.gcprof), got 0 (see gctune lifetimes --help)\n", errOut)

	_, _, code = gctune(t, "version", "extra")
	assert.Equal(t, cmdutil.ExitUsage, code)
}

func TestExitCodes(t *testing.T) {
	assert.Equal(t, 0, cmdutil.ExitCode(nil))
	assert.Equal(t, 1, cmdutil.ExitCode(errors.New("boom")))
	assert.Equal(t, 2, cmdutil.ExitCode(cmdutil.Usagef("bad %s", "input")))
	assert.Equal(t, 2, cmdutil.ExitCode(wrapf(cmdutil.Usagef("bad"))), "usage errors stay usage errors when wrapped")
	assert.Nil(t, cmdutil.AsUsage(nil))
	assert.Equal(t, "a b c", cmdutil.OneLine(errors.New("gctune: a\n\n  b\nc\n")))
}

func wrapf(err error) error { return errors.Join(errors.New("context"), err) }

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, code := gctune(t, "completion", shell)
		assert.Equal(t, 0, code, "%s: %s", shell, errOut)
		assert.Contains(t, out, "gctune", shell)
	}
	_, _, code := gctune(t, "completion", "tcsh")
	assert.Equal(t, cmdutil.ExitUsage, code)
}

// TestErrorsNameTheInput: an input that cannot be read is named as the user typed it, with
// what is wrong in a few words, not the package that read it nor Go's "open ...: no such file
// or directory".
func TestErrorsNameTheInput(t *testing.T) {
	dir := t.TempDir()
	badYAML := writeFile(t, "bad.yaml", "search: [\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"optimize", "missing.csv", "--storage", dir + "/x.db"}, "gctune: missing.csv: no such file\n"},
		{[]string{"lifetimes", "missing.yaml"}, "gctune: missing.yaml: no such file\n"},
		{[]string{"lifetimes", "missing.gcprof"}, "gctune: missing.gcprof: no such file\n"},
		{[]string{"lifetimes", dir + "/"}, `gctune: "` + dir + `/": not a bundled workload`},
		{[]string{"simulate", "tiny", "--config", "missing.yaml"}, "gctune: config missing.yaml: no such file\n"},
		{[]string{"simulate", "tiny", "--cost", "missing.yaml"}, "gctune: cost missing.yaml: no such file\n"},
		{[]string{"lifetimes", "testdata/run.csv", "--meta", "missing.json"}, "gctune: metadata: missing.json: no such file\n"},
		{[]string{"simulate", "tiny", "--config", badYAML}, "gctune: config " + badYAML + ": line 1: did not find expected node content\n"},
	} {
		out, errOut, code := gctune(t, c.args...)
		assert.Equal(t, cmdutil.ExitUsage, code, "%v", c.args)
		assert.Empty(t, out)
		assert.True(t, strings.HasPrefix(errOut, c.want), "%v: %q", c.args, errOut)
		for _, p := range []string{"lifetimes:", "profile:", "filip:", "spec:", "gcprof:", "source:"} {
			assert.NotContains(t, errOut, ": "+p, "no package prefix")
		}
		assert.NotContains(t, errOut, "directory")
	}
}
