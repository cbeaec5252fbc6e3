package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/config"
	"github.com/gctune/gctune/internal/cmdutil"
	"github.com/gctune/gctune/tunable"
)

// TestForeignConfigYAMLIgnored: a config.yaml that belongs to another program in the working
// folder breaks no command (issue 13.4: every command failed with "unknown key server.port");
// --config still reads (and checks) it when named.
func TestForeignConfigYAMLIgnored(t *testing.T) {
	tiny, err := filepath.Abs("testdata/tiny.yaml")
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile("config.yaml", []byte("server: {port: 80}\n"), 0o644))
	for _, args := range [][]string{
		{"workloads"},
		{"lifetimes", tiny},
		{"simulate", tiny},
		{"optimize", tiny, "--trials", "2", "--workers", "1", "--study", "t"},
		{"resume", "t", "--more", "1"},
		{"studies", "list"},
		{"studies", "show", "t"},
		{"export", "t", "--format", "flags"},
		{"version"},
	} {
		_, errOut, code := gctune(t, args...)
		assert.Equal(t, 0, code, "%v: %s", args, errOut)
	}
	_, errOut, code := gctune(t, "--config", "config.yaml", "lifetimes", tiny)
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, `unknown key "server.port"`)
}

// TestConfigTypeErrorsEchoTheValue: a value of the wrong type is named with its key, its value
// and where it came from (issue 11.6).
func TestConfigTypeErrorsEchoTheValue(t *testing.T) {
	path := writeFile(t, "c.yaml", "search:\n  trials: abc\n")
	_, errOut, code := gctune(t, "--config", path, "studies", "list")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: search.trials = "abc" (from `+path+`): want an integer`+"\n", errOut)

	path = writeFile(t, "c.yaml", "search: 5\n")
	_, errOut, _ = gctune(t, "--config", path, "studies", "list")
	assert.Equal(t, `gctune: config: search = 5 (from `+path+`): want a section (key: value lines)`+"\n", errOut)

	for _, c := range []struct{ env, want string }{
		{"GCTUNE_SEARCH_TRIALS=many", `config: search.trials = "many" (GCTUNE_SEARCH_TRIALS): want an integer`},
		{"GCTUNE_SEARCH_HEARTBEAT_INTERVAL=5", `config: search.heartbeat_interval = "5" (GCTUNE_SEARCH_HEARTBEAT_INTERVAL): want a duration`},
		{"GCTUNE_SIMULATE_EDEN=12XB", `config: simulate.eden = "12XB" (GCTUNE_SIMULATE_EDEN): bad size "12XB"`},
		{"GCTUNE_SIMULATE_BUG588=maybe", `config: simulate.bug588 = "maybe" (GCTUNE_SIMULATE_BUG588): want true or false`},
	} {
		name, value, _ := strings.Cut(c.env, "=")
		t.Setenv(name, value)
		_, errOut, code := gctune(t, "lifetimes", "testdata/tiny.yaml")
		assert.Equal(t, cmdutil.ExitUsage, code, c.env)
		assert.Contains(t, errOut, c.want, c.env)
		assert.Equal(t, 1, countLines(errOut), errOut)
		os.Unsetenv(name)
	}
}

// TestConfigSizeCap: an endless config file (/dev/zero) is refused after the cap, not read
// forever, and so is a directory.
func TestConfigSizeCap(t *testing.T) {
	_, errOut, code := gctune(t, "--config", "/dev/zero", "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, "gctune: config /dev/zero: larger than the 16 MiB a config file may have\n", errOut)
	_, errOut, code = gctune(t, "--config", t.TempDir(), "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "is a directory")
}

// TestTunableBadValueFromEachOrigin: a simulate tunable's value that does not parse is refused
// in one line naming the key, the value as given, where it came from (the file, the
// environment variable, the flag) and what the tunable wants, for each kind of tunable.
func TestTunableBadValueFromEachOrigin(t *testing.T) {
	path := writeFile(t, "c.yaml", "simulate:\n  ratio: fast\n")
	_, errOut, code := gctune(t, "--config", path, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: simulate.ratio = "fast" (from `+path+`): want a number`+"\n", errOut)

	path = writeFile(t, "c.yaml", "simulate:\n  headroom: [1, 2]\n")
	_, errOut, code = gctune(t, "--config", path, "simulate", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: simulate.headroom = [1 2] (from `+path+`): bad size "[1 2]": want a number of bytes with an optional unit (1024, 512k, 64MiB, 1.5GiB)`+"\n", errOut)

	t.Setenv("GCTUNE_SIMULATE_SURVIVORS_PROPORTION", "many")
	_, errOut, code = gctune(t, "--config", path, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Contains(t, errOut, "simulate.headroom = [1 2]", "the tunables are checked in their order")
	_, errOut, code = gctune(t, "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: simulate.survivors_proportion = "many" (GCTUNE_SIMULATE_SURVIVORS_PROPORTION): want a number ≥ 0 or "pharo"`+"\n", errOut)
	os.Unsetenv("GCTUNE_SIMULATE_SURVIVORS_PROPORTION")

	_, errOut, code = gctune(t, "simulate", "testdata/tiny.yaml", "--eden", "lots", "--ratio", "2")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: simulate.eden = "lots" (--eden): bad size "lots": want a number of bytes with an optional unit (1024, 512k, 64MiB, 1.5GiB)`+"\n", errOut)

	// A typed key's bad value is named before a tunable's, as before the tunables were parsed
	// while decoding.
	t.Setenv("GCTUNE_SIMULATE_BUG588", "maybe")
	_, errOut, code = gctune(t, "simulate", "testdata/tiny.yaml", "--shrink", "lots")
	assert.Equal(t, cmdutil.ExitUsage, code)
	assert.Equal(t, `gctune: config: simulate.bug588 = "maybe" (GCTUNE_SIMULATE_BUG588): want true or false`+"\n", errOut)
}

// TestLoadedTunablesAreParsed: after loading, the simulate section holds each tunable's
// parsed tunable.Value whichever layer gave it (the defaults, the file, a variable, a flag), so
// the commands that read it (Params, Validate) parse nothing.
func TestLoadedTunablesAreParsed(t *testing.T) {
	cmd := &cobra.Command{Use: "x"}
	cmd.Flags().String("eden", "", "")
	cmdutil.BindFlag(cmd, "eden", "simulate.eden")
	require.NoError(t, cmd.Flags().Set("eden", "64m"))
	t.Setenv("GCTUNE_SIMULATE_RATIO", "2.5")
	path := writeFile(t, "c.yaml", "simulate:\n  headroom: 268435456\n  survivors_proportion: 1\n")
	cfg, err := loadConfig(cmd, path)
	require.NoError(t, err)

	want := config.Tunables{}
	for key, text := range map[string]string{"eden": "64MiB", "headroom": "256MiB", "shrink": "32MiB", "ratio": "2.5", "survivors_proportion": "1"} {
		for _, tu := range tunable.All() {
			if tu.Key == key {
				v, err := tu.Parse(text)
				require.NoError(t, err)
				want[key] = v
			}
		}
	}
	assert.Equal(t, want, cfg.Simulate.Tunables)
	p, err := cfg.Simulate.Params()
	require.NoError(t, err)
	assert.Equal(t, uint64(64<<20), p.NewSpaceBytes)
	assert.Equal(t, 2.5, p.FullGCRatio)
}
