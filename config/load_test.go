package config

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gctune/gctune/profile/filip"
)

// writeConfig writes a configuration file in a fresh folder and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.yaml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// flagsWithSeed is a flag set with --seed bound to workload.seed.
func flagsWithSeed() *pflag.FlagSet {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Uint64("seed", 0, "")
	BindFlag(fs.Lookup("seed"), "workload.seed")
	return fs
}

// loadErr is the message of Load's *LoadError for src.
func loadErr(t *testing.T, src Sources) string {
	t.Helper()
	_, err := Load(context.Background(), src)
	_, ok := errors.AsType[*LoadError](err)
	require.True(t, ok, "want a *LoadError, got %v", err)
	return err.Error()
}

// TestLoadDefaults: without a file (and none in the working folder) the defaults.
func TestLoadDefaults(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := Load(context.Background(), Sources{})
	require.NoError(t, err)
	assert.Equal(t, Default(), cfg)
}

// TestLoadPrecedence: the file over the defaults, a variable over the file, a given flag over
// the variable; the working folder's gctune.yaml when no file is named.
func TestLoadPrecedence(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.WriteFile(DefaultFile, []byte("workload:\n  seed: 7\n"), 0o644))
	cfg, err := Load(context.Background(), Sources{Flags: flagsWithSeed()})
	require.NoError(t, err)
	assert.Equal(t, uint64(7), cfg.Workload.Seed)

	path := writeConfig(t, "workload:\n  seed: 11\n")
	cfg, err = Load(context.Background(), Sources{File: path, Flags: flagsWithSeed()})
	require.NoError(t, err)
	assert.Equal(t, uint64(11), cfg.Workload.Seed)

	t.Setenv("GCTUNE_WORKLOAD_SEED", "13")
	cfg, err = Load(context.Background(), Sources{File: path, Flags: flagsWithSeed()})
	require.NoError(t, err)
	assert.Equal(t, uint64(13), cfg.Workload.Seed)

	fs := flagsWithSeed()
	require.NoError(t, fs.Set("seed", "17"))
	cfg, err = Load(context.Background(), Sources{File: path, Flags: fs})
	require.NoError(t, err)
	assert.Equal(t, uint64(17), cfg.Workload.Seed)
}

// TestLoadRefusals: each refusal is one *LoadError naming the key, the value and its origin.
func TestLoadRefusals(t *testing.T) {
	t.Chdir(t.TempDir())
	path := writeConfig(t, "lifetimes:\n  long_lived_treshold: 0.1\n")
	assert.Equal(t, "config "+path+`: unknown key "lifetimes.long_lived_treshold" (did you mean "lifetimes.long_lived_threshold"?)`,
		loadErr(t, Sources{File: path}))
	path = writeConfig(t, "search:\n  trials: abc\n")
	assert.Equal(t, `config: search.trials = "abc" (from `+path+`): want an integer`, loadErr(t, Sources{File: path}))
	path = writeConfig(t, "search: 5\n")
	assert.Equal(t, `config: search = 5 (from `+path+`): want a section (key: value lines)`, loadErr(t, Sources{File: path}))
	path = writeConfig(t, "lifetimes:\n  long_lived_threshold: 1.5\n")
	err := loadErr(t, Sources{File: path})
	assert.Equal(t, "config: lifetimes.long_lived_threshold = 1.5 (from "+path+"): must be in (0, 1], a fraction of the run", err)
	d := t.TempDir()
	assert.Equal(t, "config "+d+": is a directory", loadErr(t, Sources{File: d}))

	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("eden", "", "")
	BindFlag(fs.Lookup("eden"), "simulate.eden")
	require.NoError(t, fs.Set("eden", "lots"))
	assert.Equal(t, `config: simulate.eden = "lots" (--eden): bad size "lots": want a number of bytes with an optional unit (1024, 512k, 64MiB, 1.5GiB)`,
		loadErr(t, Sources{Flags: fs}))
}

// TestLoadEnvironment: a GCTUNE_ variable naming no key is refused with the nearest one, or
// its section's; one the caller ignores passes.
func TestLoadEnvironment(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("GCTUNE_SEARCH_TRAILS", "3")
	assert.Equal(t, "config: unknown environment variable GCTUNE_SEARCH_TRAILS (did you mean GCTUNE_SEARCH_TRIALS?)", loadErr(t, Sources{}))
	os.Unsetenv("GCTUNE_SEARCH_TRAILS")
	t.Setenv("GCTUNE_WORKLOAD_X", "1")
	assert.Equal(t, "config: unknown environment variable GCTUNE_WORKLOAD_X (known: GCTUNE_WORKLOAD_RESOLUTION, GCTUNE_WORKLOAD_SEED)", loadErr(t, Sources{}))
	_, err := Load(context.Background(), Sources{IgnoreEnv: func(name string) bool { return name == "GCTUNE_WORKLOAD_X" }})
	assert.NoError(t, err)
	os.Unsetenv("GCTUNE_WORKLOAD_X")
	t.Setenv("GCTUNE_SEARCH_TRIALS", "many")
	assert.Equal(t, `config: search.trials = "many" (GCTUNE_SEARCH_TRIALS): want an integer`, loadErr(t, Sources{}))
}

// TestLoadStorageNeverShown: a storage value that does not decode is refused without its
// text, which may hold a password.
func TestLoadStorageNeverShown(t *testing.T) {
	t.Chdir(t.TempDir())
	path := writeConfig(t, "storage: {url: postgres://u:secret@h/db}\n")
	msg := loadErr(t, Sources{File: path})
	assert.NotContains(t, msg, "secret")
	assert.Contains(t, msg, "storage")
}

// TestLoadAdjust: Adjust changes the decoded configuration before it is validated.
func TestLoadAdjust(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, err := Load(context.Background(), Sources{Adjust: func(c *Config) { c.Lifetimes.Rebuild = filip.HypothesisOff }})
	require.NoError(t, err)
	assert.Equal(t, filip.HypothesisOff, cfg.Lifetimes.Rebuild)
	_, err = Load(context.Background(), Sources{Adjust: func(c *Config) { c.Lifetimes.HistogramBins = 1 }})
	_, ok := errors.AsType[*LoadError](err)
	assert.True(t, ok, "an adjusted value is validated: %v", err)
}

// TestEnvName: dots as underscores, in upper case.
func TestEnvName(t *testing.T) {
	assert.Equal(t, "GCTUNE_LIFETIMES_LONG_LIVED_THRESHOLD", EnvName("lifetimes.long_lived_threshold"))
}
