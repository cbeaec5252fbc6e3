package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, `unknown key "server.port"`)
}

// TestConfigTypeErrorsEchoTheValue: a value of the wrong type is named with its key, its value
// and where it came from (issue 11.6).
func TestConfigTypeErrorsEchoTheValue(t *testing.T) {
	path := writeFile(t, "c.yaml", "search:\n  trials: abc\n")
	_, errOut, code := gctune(t, "--config", path, "studies", "list")
	assert.Equal(t, exitUsage, code)
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
		assert.Equal(t, exitUsage, code, c.env)
		assert.Contains(t, errOut, c.want, c.env)
		assert.Equal(t, 1, countLines(errOut), errOut)
		os.Unsetenv(name)
	}
}

// TestConfigSizeCap: an endless config file (/dev/zero) is refused after the cap, not read
// forever, and so is a directory.
func TestConfigSizeCap(t *testing.T) {
	_, errOut, code := gctune(t, "--config", "/dev/zero", "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "gctune: config /dev/zero: larger than the 16 MiB a config file may have\n", errOut)
	_, errOut, code = gctune(t, "--config", t.TempDir(), "lifetimes", "testdata/tiny.yaml")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "is a directory")
}
